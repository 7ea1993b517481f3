import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError, SessionExpiredError, apiClient, apiRequest, errorMessage } from './api-client';
import { getSession, subscribeSession, TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from './session';
import { jsonResponse, mockFetch, sentJson } from '../testing/fetch-mock';
import { makeUser, signIn } from '../testing/users';

afterEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('attaches the bearer token and parses JSON', async () => {
    signIn(makeUser(), 'abc');
    const fetchMock = mockFetch(() => jsonResponse(200, { ok: 1 }));

    await expect(apiClient.get('/api/tickets')).resolves.toEqual({ ok: 1 });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/tickets');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer abc');
  });

  it('sends JSON bodies and drops empty query values', async () => {
    signIn();
    const fetchMock = mockFetch(() => jsonResponse(200, {}));

    await apiClient.post('/api/x', { a: 1 }, { query: { b: 'c', d: undefined, e: '', f: 0 } });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/x?b=c&f=0');
    expect(init?.method).toBe('POST');
    expect(sentJson(init)).toEqual({ a: 1 });
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('sends no token on anonymous calls', async () => {
    signIn();
    const fetchMock = mockFetch(() => jsonResponse(200, {}));
    await apiRequest('/api/login', { method: 'POST', json: {}, auth: false });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
  });

  it.each([401, 403])('on %i clears the session and throws SessionExpiredError', async (status) => {
    signIn();
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    mockFetch(() => jsonResponse(status, { error: 'Token invalide' }));

    const error = await apiClient.get('/api/tickets').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(SessionExpiredError);
    expect((error as SessionExpiredError).message).toBe('Session expirée');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(getSession()).toBeNull();
    expect(listener).toHaveBeenCalled();
    unsubscribe();
  });

  it('on a 401 to an anonymous call keeps the session and throws ApiError', async () => {
    signIn();
    mockFetch(() => jsonResponse(401, { error: 'Identifiants invalides' }));
    const error = await apiRequest('/api/login', { method: 'POST', auth: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(getSession()).not.toBeNull();
  });

  it("turns other failures into ApiError carrying the server's error text", async () => {
    signIn();
    mockFetch(() => jsonResponse(409, { error: 'Le ticket a été modifié entre-temps.' }));

    const error = await apiClient.patch('/api/tickets/1', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Le ticket a été modifié entre-temps.' });
    expect(errorMessage(error, 'Erreur serveur')).toBe('Le ticket a été modifié entre-temps.');
    expect(getSession()).not.toBeNull();
  });

  it('lets the screen choose the text when the server gave none', async () => {
    mockFetch(() => new Response('Bad gateway', { status: 502, headers: { 'Content-Type': 'text/plain' } }));
    const error = await apiClient.get('/api/tickets').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, serverMessage: undefined });
    expect(errorMessage(error, 'Erreur serveur')).toBe('Erreur serveur');
  });

  // Spec §7 asks for a logout here, §8 for a message: the message wins (docs/architecture.md).
  it.each([
    ['offline or server down', () => Promise.reject(new TypeError('Failed to fetch'))],
    // What a reload or a link to another page does to the requests still in flight.
    ['a request cut by the page navigating away', () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError'))],
  ])('keeps the session on a network failure while signed in (%s)', async (_case, reply) => {
    signIn();
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    mockFetch(reply);
    for (const call of [() => apiClient.get('/api/tickets'), () => apiClient.post('/api/tickets/manual/ticket-create', {}), () => apiClient.patch('/api/tickets/1/close', {})]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(errorMessage(error, 'Erreur serveur')).toBe('Erreur réseau.');
    }
    expect(getSession()).not.toBeNull();
    expect(listener).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('reads a connection cut while the answer arrives as a network failure, and keeps the session', async () => {
    signIn();
    mockFetch(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"tick'));
              controller.error(new TypeError('network error'));
            },
          }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    await expect(apiClient.get('/api/tickets')).rejects.toBeInstanceOf(NetworkError);
    expect(getSession()).not.toBeNull();
  });

  it('keeps nothing to clear on a network failure while signed out', async () => {
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest('/api/login', { method: 'POST', auth: false })).rejects.toBeInstanceOf(NetworkError);
    expect(listener).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('does not log out when the request was cancelled', async () => {
    signIn();
    const controller = new AbortController();
    controller.abort();
    mockFetch(() => Promise.reject(new DOMException('Aborted', 'AbortError')));
    await expect(apiClient.get('/api/tickets', { signal: controller.signal })).rejects.toThrow();
    expect(getSession()).not.toBeNull();
  });
});

describe('Idempotency-Key (commands carry their own id)', () => {
  const keyOf = (call: [RequestInfo | URL, RequestInit?] | undefined) => new Headers(call?.[1]?.headers).get('Idempotency-Key');

  it('sends a fresh key with each submission, none with a read', async () => {
    signIn();
    const fetchMock = mockFetch(() => jsonResponse(201, { ok: 1 }));
    await apiClient.post('/api/x', { a: 1 });
    await apiClient.post('/api/x', { a: 1 });
    await apiClient.get('/api/x');
    const [first, second, read] = fetchMock.mock.calls;
    expect(keyOf(first)).toMatch(/^[0-9a-f-]{36}$/);
    // Answered: the same values sent again are a new submission (a second ticket on purpose).
    expect(keyOf(second)).not.toBe(keyOf(first));
    expect(keyOf(read)).toBeNull();
  });

  it('re-sends the same key when the same submission is retried after a network failure, not for another one', async () => {
    signIn();
    let online = false;
    const fetchMock = mockFetch(() => (online ? jsonResponse(200, {}) : Promise.reject(new TypeError('Failed to fetch'))));
    await expect(apiClient.patch('/api/tickets/1', { statut: 'en_cours' })).rejects.toBeInstanceOf(NetworkError);
    await expect(apiClient.patch('/api/tickets/1', { statut: 'clos' })).rejects.toBeInstanceOf(NetworkError);
    online = true;
    await apiClient.patch('/api/tickets/1', { statut: 'en_cours' });
    const [first, other, retry] = fetchMock.mock.calls;
    expect(keyOf(retry)).toBe(keyOf(first));
    expect(keyOf(other)).not.toBe(keyOf(first));
  });

  it('tells the screens when a command answered 202 (recorded, read models late), and resolves with its body', async () => {
    signIn();
    const { subscribeReadModelsLate } = await import('./read-models-late');
    const listener = vi.fn();
    const unsubscribe = subscribeReadModelsLate(listener);
    mockFetch(() => jsonResponse(202, { id: 't1', pending: { position: '9', message: 'm' } }));
    await expect(apiClient.patch('/api/tickets/1', {})).resolves.toMatchObject({ id: 't1' });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
