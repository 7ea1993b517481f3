import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, renderApp, signIn } from '../testing/render-app';

describe('route guards', () => {
  describe('when signed out', () => {
    it.each(['/', '/dashboard', '/tickets', '/tickets/42', '/clients', '/telesurv/ticket', '/nimporte/quoi'])(
      '%s goes to /login',
      async (path) => {
        const app = renderApp(path);
        expect(await screen.findByRole('heading', { name: 'Connexion' })).toBeTruthy();
        expect(app.pathname()).toBe('/login');
      },
    );

    it('keeps /ticket public and rejects a link without key', () => {
      const app = renderApp('/ticket');
      expect(screen.getByRole('heading', { name: 'Demande de dépannage' })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe('Lien non valide. Merci de scanner un QR code officiel.');
      expect(app.pathname()).toBe('/ticket');
    });

    it('accepts a /ticket link with a key', () => {
      renderApp('/ticket?key=abc123');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('button', { name: 'Envoyer la demande' })).toBeTruthy();
    });
  });

  describe('when signed in as telesurveillance', () => {
    it.each(['/', '/dashboard', '/tickets', '/tickets/42', '/clients', '/stats', '/nimporte/quoi'])(
      '%s goes to /telesurv/ticket',
      async (path) => {
        signIn(makeUser({ role: 'telesurveillance', permissions: ['clients.view', 'tickets.stats'] }));
        const app = renderApp(path);
        expect(await screen.findByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' })).toBeTruthy();
        expect(app.pathname()).toBe('/telesurv/ticket');
      },
    );

    it('/login goes to /telesurv/ticket', async () => {
      signIn(makeUser({ role: 'telesurveillance' }));
      const app = renderApp('/login');
      await screen.findByRole('heading', { name: 'Nouveau ticket (Télésurveillance)' });
      expect(app.pathname()).toBe('/telesurv/ticket');
    });
  });

  describe('when signed in as staff', () => {
    it('shows the home summary on / and /dashboard', () => {
      signIn();
      renderApp('/');
      expect(screen.getByRole('heading', { name: 'Résumé des tickets' })).toBeTruthy();
    });

    it('sends an unknown path to the home summary', async () => {
      signIn();
      const app = renderApp('/nimporte/quoi');
      expect(await screen.findByRole('heading', { name: 'Résumé des tickets' })).toBeTruthy();
      expect(app.pathname()).toBe('/');
    });

    it('sends /telesurv/ticket home', async () => {
      signIn(makeUser({ role: 'admin' }));
      const app = renderApp('/telesurv/ticket');
      await screen.findByRole('heading', { name: 'Résumé des tickets' });
      expect(app.pathname()).toBe('/');
    });

    it('/login goes to the dashboard', async () => {
      signIn();
      const app = renderApp('/login');
      await screen.findByRole('heading', { name: 'Résumé des tickets' });
      expect(app.pathname()).toBe('/dashboard');
    });

    it('shows a ticket detail with a way back to the list', async () => {
      signIn();
      const app = renderApp('/tickets/42');
      await app.user.click(screen.getByRole('link', { name: /Retour aux tickets/ }));
      expect(await screen.findByRole('heading', { name: 'Tickets Ouverts' })).toBeTruthy();
      expect(app.pathname()).toBe('/tickets');
    });

    it.each([
      ['/clients', 'clients.view', 'Clients'],
      ['/users', 'users.view', 'Utilisateurs'],
      ['/agences', 'agences.view', 'Agences'],
      ['/qrcodes', 'qrcodes.manage', 'QR Codes'],
      ['/template-builder', 'templates.view', 'Templates de documents'],
      ['/template-builder', 'templates.manage', 'Templates de documents'],
      ['/stats', 'tickets.stats', 'Statistiques'],
      ['/stats', 'tickets.stats-global', 'Statistiques'],
      ['/metiers', 'metier.edit', 'Métiers'],
      ['/telesurv', 'telesurveillance.edit', 'Comptes télésurveillance'],
    ])('%s opens with %s', async (path, permission, title) => {
      signIn(makeUser({ role: 'admin', permissions: [permission] }));
      const app = renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(screen.queryByText('Écran en construction')).toBeNull();
      expect(app.pathname()).toBe(path);
    });

    it.each([
      ['/clients', 'Clients'],
      ['/users', 'Utilisateurs'],
      ['/agences', 'Agences'],
      ['/qrcodes', 'QR Codes'],
      ['/template-builder', 'Templates de documents'],
      ['/stats', 'Statistiques'],
      ['/metiers', 'Métiers'],
      ['/telesurv', 'Comptes télésurveillance'],
    ])("%s without its permission says 'Accès refusé.' under the screen's title, and stays there", async (path, title) => {
      signIn(makeUser({ role: 'technicien', permissions: ['tickets.devis'] }));
      const app = renderApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe('Accès refusé.');
      expect(screen.queryByRole('heading', { name: 'Résumé des tickets' })).toBeNull();
      expect(app.pathname()).toBe(path);
    });

    it('lets admin_plus into /agences without agences.view', () => {
      signIn(makeUser({ role: 'admin_plus', permissions: [] }));
      renderApp('/agences');
      expect(screen.getByRole('heading', { name: 'Agences' })).toBeTruthy();
    });
  });
});
