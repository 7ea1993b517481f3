import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiClient, SessionExpiredError } from '../lib/api-client';
import { jsonResponse, mockFetch, renderApp, signIn } from '../testing/render-app';

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
