import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn } from '../../../testing/render-app';

function nav() {
  return within(screen.getByRole('navigation', { name: 'Navigation principale' }));
}

function menuLabels(): string[] {
  return screen.getAllByRole('menuitem').map((item) => item.textContent ?? '');
}

describe('navigation bar', () => {
  it('shows the avatar initial, the full name and the agency', () => {
    signIn(makeUser({ prenom: 'élodie', nom: 'Martin', agence_nom: 'Agence Grenoble' }));
    const { container } = renderApp('/');
    expect(container.querySelector('.navbar__avatar')?.textContent).toBe('É');
    expect(screen.getByRole('button', { name: 'élodie Martin' })).toBeTruthy();
    expect(screen.getByText('Agence Grenoble')).toBeTruthy();
  });

  it('gives a technician without permissions Dashboard and Tickets only', () => {
    signIn(makeUser({ role: 'technicien', permissions: [] }));
    renderApp('/');
    expect(nav().getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(nav().getByRole('link', { name: 'Tickets' })).toBeTruthy();
    expect(nav().queryByRole('link', { name: 'Statistiques' })).toBeNull();
    expect(nav().queryByRole('link', { name: 'Nouveau ticket' })).toBeNull();
    expect(nav().queryByRole('button', { name: /Gestion/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Déconnexion' })).toBeTruthy();
  });

  it.each(['tickets.stats', 'tickets.stats-global'])('shows Statistiques with %s', (permission) => {
    signIn(makeUser({ permissions: [permission] }));
    renderApp('/');
    expect(nav().getByRole('link', { name: 'Statistiques' }).getAttribute('href')).toBe('/stats');
  });

  it('lists in Gestion only the entries the user may open, in order', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['metier.edit', 'clients.view', 'templates.manage'] }));
    const app = renderApp('/');
    await app.user.click(nav().getByRole('button', { name: /Gestion/ }));
    expect(menuLabels()).toEqual(['Clients', 'Templates', 'Métiers']);
  });

  it('lists every entry for a user holding every permission', async () => {
    signIn(
      makeUser({
        role: 'admin',
        permissions: [
          'clients.view',
          'users.view',
          'agences.view',
          'qrcodes.manage',
          'templates.view',
          'metier.edit',
          'telesurveillance.edit',
        ],
      }),
    );
    const app = renderApp('/');
    await app.user.click(nav().getByRole('button', { name: /Gestion/ }));
    expect(menuLabels()).toEqual(['Clients', 'Utilisateurs', 'Agences', 'QR Codes', 'Templates', 'Métiers', 'Télésurveillance']);
  });

  it('gives admin_plus the Agences entry without agences.view', async () => {
    signIn(makeUser({ role: 'admin_plus', permissions: [] }));
    const app = renderApp('/');
    await app.user.click(nav().getByRole('button', { name: /Gestion/ }));
    expect(menuLabels()).toEqual(['Agences']);
  });

  it('gives telesurveillance only Nouveau ticket, whatever its permissions', () => {
    signIn(makeUser({ role: 'telesurveillance', permissions: ['clients.view', 'tickets.stats'] }));
    renderApp('/telesurv/ticket');
    const links = nav().getAllByRole('link').map((link) => link.textContent);
    expect(links).toEqual(['Nouveau ticket']);
    expect(nav().queryByRole('button', { name: /Gestion/ })).toBeNull();
  });

  describe('Gestion dropdown', () => {
    function renderAdmin(path = '/') {
      signIn(makeUser({ role: 'admin', permissions: ['clients.view', 'users.view', 'qrcodes.manage'] }));
      return renderApp(path);
    }

    it('opens as a menu and closes on an outside click', async () => {
      const app = renderAdmin();
      const button = nav().getByRole('button', { name: /Gestion/ });
      expect(button.getAttribute('aria-expanded')).toBe('false');

      await app.user.click(button);
      expect(button.getAttribute('aria-expanded')).toBe('true');
      expect(screen.getByRole('menu')).toBeTruthy();

      await app.user.click(screen.getByRole('heading', { name: 'Résumé des tickets' }));
      expect(screen.queryByRole('menu')).toBeNull();
      expect(button.getAttribute('aria-expanded')).toBe('false');
    });

    it('closes when a menu entry is followed', async () => {
      const app = renderAdmin();
      await app.user.click(nav().getByRole('button', { name: /Gestion/ }));
      await app.user.click(screen.getByRole('menuitem', { name: 'Utilisateurs' }));
      expect(app.pathname()).toBe('/users');
      expect(screen.getByRole('heading', { name: 'Utilisateurs' })).toBeTruthy();
      expect(screen.queryByRole('menu')).toBeNull();
    });

    it('closes when the route changes from elsewhere', async () => {
      const app = renderAdmin();
      await app.user.click(nav().getByRole('button', { name: /Gestion/ }));
      await app.router.navigate('/tickets');
      expect(await screen.findByRole('heading', { name: 'Tickets Ouverts' })).toBeTruthy();
      expect(screen.queryByRole('menu')).toBeNull();
    });

    it('works from the keyboard: arrows move, Escape closes and returns focus', async () => {
      const app = renderAdmin();
      const button = nav().getByRole('button', { name: /Gestion/ });
      button.focus();

      await app.user.keyboard('{ArrowDown}');
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Clients' }));
      await app.user.keyboard('{ArrowDown}');
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Utilisateurs' }));
      await app.user.keyboard('{End}');
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'QR Codes' }));
      await app.user.keyboard('{ArrowDown}');
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Clients' }));

      await app.user.keyboard('{Escape}');
      expect(screen.queryByRole('menu')).toBeNull();
      expect(document.activeElement).toBe(button);
    });

    it('opens with Enter and follows an entry with Enter', async () => {
      const app = renderAdmin();
      nav().getByRole('button', { name: /Gestion/ }).focus();
      await app.user.keyboard('{Enter}');
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Clients' }));
      await app.user.keyboard('{Enter}');
      expect(app.pathname()).toBe('/clients');
    });

    it('marks Gestion as active on a management screen', () => {
      renderAdmin('/clients');
      expect(nav().getByRole('button', { name: /Gestion/ }).className).toContain('navbar__link--active');
    });
  });

  it('Déconnexion clears the session, goes to /login and has the server end the session', async () => {
    signIn(makeUser(), 'jeton-de-session');
    const api = mockApi({ 'POST /api/logout': { success: true } });
    const app = renderApp('/');
    app.queryClient.setQueryData(['tickets'], ['cached']);

    await app.user.click(screen.getByRole('button', { name: 'Déconnexion' }));

    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    expect(app.pathname()).toBe('/login');
    expect(getSession()).toBeNull();
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(app.queryClient.getQueryData(['tickets'])).toBeUndefined();
    // The token to revoke travels in the body, never in the URL.
    await waitFor(() => expect(api.calls('POST /api/logout')).toHaveLength(1));
    const [call] = api.calls('POST /api/logout');
    expect(sentBody(call)).toEqual({ token: 'jeton-de-session' });
    expect(call!.query.toString()).toBe('');
    // A user logging out is no expired session.
    expect(screen.queryByText(/Session expirée/)).toBeNull();
  });

  it('Déconnexion still signs out when the server does not answer, without saying the session expired', async () => {
    signIn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockApi({ 'POST /api/logout': jsonResponse(503, { error: 'Service momentanément indisponible.' }) });
    const app = renderApp('/');
    await app.user.click(screen.getByRole('button', { name: 'Déconnexion' }));
    expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(api.calls('POST /api/logout')).toHaveLength(1);
    expect(getSession()).toBeNull();
    expect(screen.queryByText(/Session expirée/)).toBeNull();
  });
});
