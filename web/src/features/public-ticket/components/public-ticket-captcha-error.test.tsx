import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../../../testing/render-app';

// The widget's script cannot load (blocked, offline): the form says so instead of sending.
vi.mock('altcha', () => {
  throw new Error('blocked');
});
vi.mock('altcha/i18n/fr-fr', () => ({}));

describe('public form without its captcha', () => {
  it("says 'Erreur reCAPTCHA. Merci de réessayer plus tard.'", async () => {
    const api = mockApi({});
    const app = renderApp('/ticket?key=QR-1');
    await app.user.type(screen.getByLabelText('Nom'), 'Bernard');
    await app.user.type(screen.getByLabelText('Prénom'), 'Julie');
    await app.user.type(screen.getByLabelText('Email'), 'julie@example.fr');
    await app.user.type(screen.getByLabelText('Téléphone'), '0612345678');
    await app.user.type(screen.getByLabelText('Problème'), 'Panne');
    await app.user.click(screen.getByRole('button', { name: 'Envoyer la demande' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur reCAPTCHA. Merci de réessayer plus tard.');
    expect(api.calls('POST /api/public/ticket-create')).toHaveLength(0);
  });
});
