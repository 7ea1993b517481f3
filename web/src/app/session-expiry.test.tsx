import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, SessionExpiredError } from '../lib/api-client';
import { getSession } from '../lib/session';
import { IDS, jsonResponse, makeTicket, makeUser, mockApi, mockFetch, renderApp, signIn } from '../testing/render-app';

async function logIn(app: ReturnType<typeof renderApp>) {
  await app.user.type(screen.getByLabelText('Email'), 'camille@example.fr');
  await app.user.type(screen.getByLabelText('Mot de passe'), 'secret-1!');
  await app.user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe('session expiry', () => {
  it('a 401 from any call clears the session, the cache, and shows the login', async () => {
    signIn();
    mockFetch(() => jsonResponse(401, { error: 'Jeton expiré' }));
    const app = renderApp('/tickets');
    app.queryClient.setQueryData(['tickets'], ['cached']);

    await act(async () => {
      await expect(apiClient.get('/api/tickets')).rejects.toBeInstanceOf(SessionExpiredError);
    });

    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(app.queryClient.getQueryData(['tickets'])).toBeUndefined();
    expect(screen.getByText('Session expirée. Merci de vous reconnecter.')).toBeTruthy();
  });

  it('after a 401 the login brings the user back to the page they were on, filters included', async () => {
    signIn(makeUser({ id: 'u-7' }));
    const ticket = makeTicket();
    let tokenValid = false;
    mockApi({
      'GET /api/tickets/:id': () => (tokenValid ? ticket : jsonResponse(401, { error: 'Jeton expiré' })),
      'GET /api/tickets/:id/interventions': [],
      'POST /api/login': () => {
        tokenValid = true;
        return { token: 'jwt-neuf', user: makeUser({ id: 'u-7' }) };
      },
    });
    const app = renderApp(`/tickets/${IDS.ticket}?onglet=historique#interventions`);

    expect(await screen.findByText('Session expirée. Merci de vous reconnecter.')).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    expect(new URLSearchParams(app.router.state.location.search).get('retour')).toBe(`/tickets/${IDS.ticket}?onglet=historique#interventions`);
    // The token never rides along in the address.
    expect(app.router.state.location.search).not.toContain('test-token');

    await logIn(app);

    expect(await screen.findByRole('heading', { name: `Ticket ${ticket.num_chrono}` })).toBeTruthy();
    expect(app.pathname()).toBe(`/tickets/${IDS.ticket}`);
    expect(app.router.state.location.search).toBe('?onglet=historique');
    expect(app.router.state.location.hash).toBe('#interventions');
  });

  it('a deep link opened signed out comes back after the login', async () => {
    mockApi({ 'GET /api/tickets': [], 'POST /api/login': { token: 'jwt-1', user: makeUser() } });
    const app = renderApp('/tickets?vue=clos');
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    // Signed out from the start, not by the server: no 'Session expirée'.
    expect(screen.queryByText(/Session expirée/)).toBeNull();

    await logIn(app);

    await waitFor(() => expect(app.pathname()).toBe('/tickets'));
    expect(app.router.state.location.search).toBe('?vue=clos');
  });

  it.each([
    ['another site', 'https://ailleurs.example/piege'],
    ['a protocol-relative address', '//ailleurs.example/piege'],
    ['a backslash address', '/\\ailleurs.example'],
    ['a script', 'javascript:alert(1)'],
    ['the login itself', '/login?retour=/login'],
    ['an overlong path', `/${'x'.repeat(3000)}`],
  ])('a return path that is not a page of the app (%s) is ignored: the login goes home', async (_case, retour) => {
    mockApi({ 'POST /api/login': { token: 'jwt-1', user: makeUser({ role: 'admin' }) } });
    const app = renderApp(`/login?${new URLSearchParams({ retour }).toString()}`);

    await logIn(app);

    expect(await screen.findByRole('heading', { name: 'Résumé des tickets' })).toBeTruthy();
    expect(app.pathname()).toBe('/dashboard');
  });

  it('a network failure never signs the user out: the screen says so and stays', async () => {
    signIn();
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const app = renderApp('/tickets');

    expect(await screen.findByText('Erreur réseau.')).toBeTruthy();
    expect(app.pathname()).toBe('/tickets');
    expect(getSession()).not.toBeNull();
    expect(screen.queryByRole('heading', { name: 'Connexion' })).toBeNull();
  });

  it('a deliberate Déconnexion does not carry the page along: the next login goes home', async () => {
    signIn(makeUser({ role: 'admin' }));
    mockApi({ 'GET /api/tickets': [], 'POST /api/logout': { success: true }, 'POST /api/login': { token: 'jwt-2', user: makeUser({ role: 'admin' }) } });
    const app = renderApp('/tickets');
    await app.user.click(await screen.findByRole('button', { name: 'Déconnexion' }));
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(app.router.state.location.search).toBe('');

    await logIn(app);

    expect(await screen.findByRole('heading', { name: 'Résumé des tickets' })).toBeTruthy();
    expect(app.pathname()).toBe('/dashboard');
  });

  it('the live socket closed by the server with 4401 (session revoked, account deleted) ends it too', async () => {
    const sockets: FakeWebSocket[] = [];
    class FakeWebSocket {
      onopen: ((event: Event) => void) | null = null;
      onmessage: ((event: MessageEvent) => void) | null = null;
      onclose: ((event: CloseEvent) => void) | null = null;
      onerror: ((event: Event) => void) | null = null;
      readonly sent: string[] = [];
      constructor(readonly url: string) {
        sockets.push(this);
      }
      send(data: string) {
        this.sent.push(data);
      }
      close() {}
    }
    vi.stubGlobal('WebSocket', FakeWebSocket);
    signIn(undefined, 'jeton-de-session');
    const app = renderApp('/tickets', { liveUpdates: true });
    expect(sockets).toHaveLength(1);
    const socket = sockets[0]!;
    expect(socket.url).not.toContain('jeton-de-session');
    await act(async () => socket.onopen?.(new Event('open')));
    expect(socket.sent.map((data) => JSON.parse(data))).toEqual([{ type: 'auth', token: 'jeton-de-session' }]);

    await act(async () => socket.onclose?.({ code: 4401, reason: 'Session expirée' } as CloseEvent));

    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(screen.getByText('Session expirée. Merci de vous reconnecter.')).toBeTruthy();
  });

  it('a logout in another tab signs this one out too', async () => {
    signIn();
    const app = renderApp('/');
    await act(async () => {
      window.localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    });
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    // Not the server's doing: no 'Session expirée'.
    expect(screen.queryByText(/Session expirée/)).toBeNull();
  });
});
