import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockFetch, renderApp, sentJson, signIn } from '../../../testing/render-app';

/** The home screen behind the dialog loads its summary; only the password calls matter here. */
function passwordCalls(fetchMock: ReturnType<typeof mockFetch>) {
  return fetchMock.mock.calls.filter(([url]) => String(url) === '/api/utilisateurs/change-password');
}

async function openDialog() {
  signIn(makeUser({ prenom: 'Camille', nom: 'Durand' }));
  const app = renderApp('/');
  await app.user.click(screen.getByRole('button', { name: 'Camille Durand' }));
  const dialog = screen.getByRole('dialog', { name: 'Changer mon mot de passe' });
  return { app, dialog: within(dialog), dialogElement: dialog };
}

async function fill(
  app: Awaited<ReturnType<typeof openDialog>>['app'],
  dialog: Awaited<ReturnType<typeof openDialog>>['dialog'],
  values: { old?: string; next?: string; confirm?: string },
) {
  if (values.old) await app.user.type(dialog.getByLabelText('Ancien mot de passe'), values.old);
  if (values.next) await app.user.type(dialog.getByLabelText('Nouveau mot de passe'), values.next);
  if (values.confirm) await app.user.type(dialog.getByLabelText('Confirmation du nouveau mot de passe'), values.confirm);
  await app.user.click(dialog.getByRole('button', { name: 'Valider' }));
}

describe('password dialog', () => {
  it('is a labelled modal dialog with focus on the first field', async () => {
    const { dialog, dialogElement } = await openDialog();
    expect(dialogElement.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(dialog.getByLabelText('Ancien mot de passe'));
  });

  it("requires every field: 'Tous les champs sont obligatoires.'", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true }));
    const { app, dialog } = await openDialog();
    await fill(app, dialog, { old: 'ancien', next: 'Nouveau-1' });
    expect(dialog.getByRole('alert').textContent).toBe('Tous les champs sont obligatoires.');
    expect(dialog.getByLabelText('Confirmation du nouveau mot de passe').getAttribute('aria-invalid')).toBe('true');
    expect(passwordCalls(fetchMock)).toHaveLength(0);
  });

  it.each(['court-1', 'sanschiffre!', '12345678!', 'Alphanum123'])(
    "rejects '%s': 'Le mot de passe ne respecte pas tous les critères.'",
    async (weak) => {
      const fetchMock = mockFetch(() => jsonResponse(200, { success: true }));
      const { app, dialog } = await openDialog();
      await fill(app, dialog, { old: 'ancien', next: weak, confirm: weak });
      expect(dialog.getByRole('alert').textContent).toBe('Le mot de passe ne respecte pas tous les critères.');
      expect(dialog.getByLabelText('Nouveau mot de passe').getAttribute('aria-invalid')).toBe('true');
      expect(passwordCalls(fetchMock)).toHaveLength(0);
    },
  );

  it("checks the confirmation: 'La confirmation ne correspond pas.'", async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true }));
    const { app, dialog } = await openDialog();
    await fill(app, dialog, { old: 'ancien', next: 'Nouveau-1', confirm: 'Nouveau-2' });
    expect(dialog.getByRole('alert').textContent).toBe('La confirmation ne correspond pas.');
    expect(passwordCalls(fetchMock)).toHaveLength(0);
  });

  it('changes the password, confirms, then closes 1.5 s later and returns focus', async () => {
    const fetchMock = mockFetch(() => jsonResponse(200, { success: true }));
    const { app, dialog } = await openDialog();
    await fill(app, dialog, { old: 'ancien', next: 'Nouveau-1', confirm: 'Nouveau-1' });

    expect((await dialog.findByRole('status')).textContent).toBe('Mot de passe modifié avec succès.');
    const [url, init] = passwordCalls(fetchMock)[0] ?? [];
    expect(url).toBe('/api/utilisateurs/change-password');
    expect(sentJson(init)).toEqual({ oldPassword: 'ancien', newPassword: 'Nouveau-1' });
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer test-token');

    // Still open just after success, gone after the delay.
    expect(screen.getByRole('dialog')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Camille Durand' }));
  });

  it("shows the server's error text", async () => {
    mockFetch(() => jsonResponse(400, { error: 'Ancien mot de passe incorrect.' }));
    const { app, dialog } = await openDialog();
    await fill(app, dialog, { old: 'faux', next: 'Nouveau-1', confirm: 'Nouveau-1' });
    expect((await dialog.findByRole('alert')).textContent).toBe('Ancien mot de passe incorrect.');
  });

  it("falls back to 'Erreur inconnue.' when the server gives no text", async () => {
    mockFetch(() => jsonResponse(200, { success: false }));
    const { app, dialog } = await openDialog();
    await fill(app, dialog, { old: 'ancien', next: 'Nouveau-1', confirm: 'Nouveau-1' });
    expect((await dialog.findByRole('alert')).textContent).toBe('Erreur inconnue.');
  });

  it('closes on Escape and gives focus back to the name button', async () => {
    const { app } = await openDialog();
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Camille Durand' }));
  });

  it('keeps Tab inside the dialog', async () => {
    const { app, dialog } = await openDialog();
    dialog.getByRole('button', { name: 'Valider' }).focus();
    await app.user.tab();
    expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Fermer' }));
    await app.user.tab({ shift: true });
    expect(document.activeElement).toBe(dialog.getByRole('button', { name: 'Valider' }));
  });
});
