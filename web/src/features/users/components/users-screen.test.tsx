import { MANAGEMENT_MESSAGES as M } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeAgence, makeStaffUser, MIDS, nthId } from '../../../testing/management';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn } from '../../../testing/render-app';

const LUCIE = makeStaffUser();
const MARC = makeStaffUser({ id: MIDS.user2, nom: 'Roux', prenom: 'Marc', email: 'marc.roux@example.fr', role: 'admin', agence_nom: 'Agence Grenoble', agence_id: MIDS.agence2 });
const CATALOG = [
  { slug: 'clients.view', label: 'Voir les clients' },
  { slug: 'clients.edit', label: 'Gérer les clients' },
  { slug: 'tickets.stats', label: 'Voir les statistiques de son agence' },
  { slug: 'superviseur', label: 'Superviseur (ancien)' },
];

const admin = (permissions = ['users.view', 'users.edit', 'users.permissions', 'clients.view']) =>
  signIn(makeUser({ id: nthId('8', 99), role: 'admin', permissions }));
const adminPlus = () => signIn(makeUser({ id: nthId('8', 99), role: 'admin_plus', permissions: ['users.view'] }));

describe('Utilisateurs screen', () => {
  it('shows 10 users a page and searches them', async () => {
    admin();
    const users = Array.from({ length: 12 }, (_, i) =>
      makeStaffUser({ id: nthId('8', i + 1), nom: `Nom${String(i + 1).padStart(2, '0')}`, prenom: 'Test', email: `u${i + 1}@example.fr` }),
    );
    mockApi({ 'GET /api/utilisateurs': users });
    const app = renderApp('/users');
    await screen.findByRole('rowheader', { name: 'Nom01' });
    expect(screen.getAllByRole('rowheader')).toHaveLength(10);
    expect(screen.getByText('Page 1 sur 2')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Suivant' }));
    expect(screen.getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['Nom11', 'Nom12']);

    await app.user.type(screen.getByLabelText('Rechercher un utilisateur'), 'u3@');
    expect(screen.getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['Nom03']);
    expect(screen.queryByRole('navigation', { name: 'Pages des utilisateurs' })).toBeNull();
  });

  it('shows the agency column and picker to admin_plus only', async () => {
    adminPlus();
    mockApi({ 'GET /api/utilisateurs': [LUCIE, MARC], 'GET /api/utilisateurs/agences': [makeAgence(), makeAgence({ id: MIDS.agence2, nom: 'Agence Grenoble' })] });
    const app = renderApp('/users');
    expect(await screen.findByRole('columnheader', { name: 'Agence' })).toBeTruthy();
    expect((await screen.findByRole('row', { name: /Roux/ })).textContent).toContain('Agence Grenoble');
    await app.user.click(screen.getByRole('button', { name: '+ Ajouter un utilisateur' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    expect(await within(dialog).findByRole('option', { name: 'Agence Grenoble' })).toBeTruthy();
    // admin_plus may grant every staff role.
    expect(within(dialog).getByRole('option', { name: "Administrateur d'agence" })).toBeTruthy();
  });

  it('adds a user: names, email and phone required; a non admin_plus leaves the agency to the server', async () => {
    admin();
    const mock = mockApi({ 'GET /api/utilisateurs': [LUCIE], 'POST /api/utilisateurs': () => jsonResponse(201, makeStaffUser({ id: MIDS.user2, nom: 'Blanc' })) });
    const app = renderApp('/users');
    expect(await screen.findByRole('rowheader', { name: 'Petit' })).toBeTruthy();
    expect(screen.queryByRole('columnheader', { name: 'Agence' })).toBeNull();
    await app.user.click(screen.getByRole('button', { name: '+ Ajouter un utilisateur' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un utilisateur' });
    expect(within(dialog).queryByLabelText('Agence')).toBeNull();
    expect(within(dialog).queryByRole('option', { name: "Administrateur d'agence" })).toBeNull();

    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByText(M.userNomRequired)).toBeTruthy();
    expect(within(dialog).getByText(M.userPrenomRequired)).toBeTruthy();
    expect(within(dialog).getByText(M.userEmailRequired)).toBeTruthy();
    expect(within(dialog).getByText(M.userTelephoneRequired)).toBeTruthy();

    await app.user.type(within(dialog).getByLabelText('Nom'), 'Blanc');
    await app.user.type(within(dialog).getByLabelText('Prénom'), 'Léa');
    await app.user.type(within(dialog).getByLabelText('Email'), 'Lea.Blanc@example.fr');
    await app.user.type(within(dialog).getByLabelText('Téléphone'), '06 22 22 22 22');
    await app.user.selectOptions(within(dialog).getByLabelText('Rôle'), 'technicien_plus');
    await app.user.type(within(dialog).getByLabelText('Mot de passe'), 'court');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByText(M.passwordPolicy)).toBeTruthy();
    await app.user.type(within(dialog).getByLabelText('Mot de passe'), '-Secret1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/utilisateurs')[0])).toEqual({
      nom: 'Blanc',
      prenom: 'Léa',
      email: 'lea.blanc@example.fr',
      telephone: '06 22 22 22 22',
      role: 'technicien_plus',
      motdepasse: 'court-Secret1',
    });
  });

  it('edits a row in place', async () => {
    admin();
    const mock = mockApi({ 'GET /api/utilisateurs': [LUCIE], 'PUT /api/utilisateurs/:id': { ...LUCIE, telephone: '07 00 00 00 00' } });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Lucie Petit' }));
    const phone = screen.getByRole('textbox', { name: 'Téléphone' });
    await app.user.clear(phone);
    await app.user.type(phone, '07 00 00 00 00');
    const nom = screen.getByRole('textbox', { name: 'Nom' });
    await app.user.clear(nom);
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(screen.getByText(M.userNomRequired)).toBeTruthy();
    await app.user.type(nom, 'Petit');
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(mock.calls('PUT /api/utilisateurs/:id')).toHaveLength(1));
    expect(sentBody(mock.calls('PUT /api/utilisateurs/:id')[0])).toEqual({
      nom: 'Petit',
      prenom: 'Lucie',
      email: 'lucie.petit@example.fr',
      telephone: '07 00 00 00 00',
      role: 'technicien',
    });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Nom' })).toBeNull());
  });

  it('saves a row on the version it was loaded at; on a conflict keeps what was typed and reloads the row on request', async () => {
    admin();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let listed = [{ ...LUCIE, version: 2 }];
    const mock = mockApi({
      'GET /api/utilisateurs': () => listed,
      'PUT /api/utilisateurs/:id': () => jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Lucie Petit' }));
    // Somebody else changes her e-mail meanwhile.
    listed = [{ ...LUCIE, email: 'lucie.petit@exemple.com', version: 3 }];
    const phone = screen.getByRole('textbox', { name: 'Téléphone' });
    await app.user.clear(phone);
    await app.user.type(phone, '07 00 00 00 00');
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/utilisateurs/:id')[0])).toMatchObject({ telephone: '07 00 00 00 00', version: 2 });
    expect((screen.getByRole('textbox', { name: 'Téléphone' }) as HTMLInputElement).value).toBe('07 00 00 00 00');
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe('lucie.petit@exemple.com'));
    expect((screen.getByRole('textbox', { name: 'Téléphone' }) as HTMLInputElement).value).toBe(LUCIE.telephone);
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(mock.calls('PUT /api/utilisateurs/:id')).toHaveLength(2));
    expect(sentBody(mock.calls('PUT /api/utilisateurs/:id')[1])).toMatchObject({ email: 'lucie.petit@exemple.com', version: 3 });
  });

  it('saves a permission set on the version it was read at and keeps the ticks on a conflict', async () => {
    admin();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let current = { permissions: ['clients.view'], version: 4 };
    const mock = mockApi({
      'GET /api/utilisateurs': [LUCIE],
      'GET /api/utilisateurs/permissions-catalog': CATALOG,
      'GET /api/utilisateurs/:id/permissions': () => current,
      'PUT /api/utilisateurs/:id/permissions': () => jsonResponse(409, { success: false, error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Permissions de Lucie Petit' }));
    const dialog = screen.getByRole('dialog', { name: 'Permissions de Lucie Petit' });
    const voir = (await within(dialog).findByRole('checkbox', { name: /Voir les clients/ })) as HTMLInputElement;
    current = { permissions: ['clients.view', 'superviseur'], version: 5 };
    await app.user.click(voir);
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/utilisateurs/:id/permissions')[0])).toEqual({ permissions: [], version: 4 });
    expect((within(dialog).getByRole('checkbox', { name: /Voir les clients/ }) as HTMLInputElement).checked).toBe(false);
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((within(dialog).getByRole('checkbox', { name: /Superviseur/ }) as HTMLInputElement).checked).toBe(true));
    expect((within(dialog).getByRole('checkbox', { name: /Voir les clients/ }) as HTMLInputElement).checked).toBe(true);
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(mock.calls('PUT /api/utilisateurs/:id/permissions')).toHaveLength(2));
    expect(sentBody(mock.calls('PUT /api/utilisateurs/:id/permissions')[1])).toEqual({ permissions: ['clients.view', 'superviseur'], version: 5 });
  });

  it('lets an agency admin manage technicians only', async () => {
    admin();
    mockApi({ 'GET /api/utilisateurs': [LUCIE, MARC] });
    renderApp('/users');
    expect(await screen.findByRole('button', { name: 'Modifier Lucie Petit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Modifier Marc Roux' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Supprimer Marc Roux' })).toBeNull();
  });

  it('groups permissions by slug prefix, slugs without a dot under Autres, and saves the set', async () => {
    admin();
    const mock = mockApi({
      'GET /api/utilisateurs': [LUCIE],
      'GET /api/utilisateurs/permissions-catalog': CATALOG,
      'GET /api/utilisateurs/:id/permissions': { permissions: ['clients.view'] },
      'PUT /api/utilisateurs/:id/permissions': { success: true },
    });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Permissions de Lucie Petit' }));
    const dialog = screen.getByRole('dialog', { name: 'Permissions de Lucie Petit' });
    const groups = await within(dialog).findAllByRole('group');
    expect(groups.map((g) => g.querySelector('legend')?.textContent)).toEqual(['Clients', 'Tickets', 'Autres']);
    expect(within(groups[2] as HTMLElement).getByRole('checkbox', { name: /Superviseur/ })).toBeTruthy();
    expect((within(dialog).getByRole('checkbox', { name: /Voir les clients/ }) as HTMLInputElement).checked).toBe(true);
    // An agency admin cannot grant what it does not hold.
    expect((within(dialog).getByRole('checkbox', { name: /Voir les statistiques/ }) as HTMLInputElement).disabled).toBe(true);
    await app.user.click(within(dialog).getByRole('checkbox', { name: /Voir les clients/ }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('PUT /api/utilisateurs/:id/permissions')[0])).toEqual({ permissions: [] });
  });

  it('shows the permission load and save errors', async () => {
    admin();
    mockApi({
      'GET /api/utilisateurs': [LUCIE],
      'GET /api/utilisateurs/permissions-catalog': CATALOG,
      'GET /api/utilisateurs/:id/permissions': () => jsonResponse(500, {}),
    });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Permissions de Lucie Petit' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur lors du chargement des permissions.');
  });

  it('reads a {success:false} save as a failure', async () => {
    admin();
    mockApi({
      'GET /api/utilisateurs': [LUCIE],
      'GET /api/utilisateurs/permissions-catalog': CATALOG,
      'GET /api/utilisateurs/:id/permissions': { permissions: [] },
      'PUT /api/utilisateurs/:id/permissions': { success: false },
    });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Permissions de Lucie Petit' }));
    const dialog = screen.getByRole('dialog');
    await app.user.click(await within(dialog).findByRole('checkbox', { name: /Gérer les clients/ }));
    expect((within(dialog).getByRole('checkbox', { name: /Gérer les clients/ }) as HTMLInputElement).disabled).toBe(true);
    await app.user.click(within(dialog).getByRole('checkbox', { name: /Voir les clients/ }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Erreur lors de la sauvegarde des permissions.');
  });

  it('asks before deleting a user', async () => {
    admin();
    const mock = mockApi({ 'GET /api/utilisateurs': [LUCIE], 'DELETE /api/utilisateurs/:id': { success: true } });
    const app = renderApp('/users');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer Lucie Petit' }));
    const dialog = screen.getByRole('dialog', { name: "Supprimer l'utilisateur" });
    expect(within(dialog).getByText("Supprimer l'utilisateur « Lucie Petit » ?")).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(mock.calls('DELETE /api/utilisateurs/:id')[0]?.path).toBe(`/api/utilisateurs/${MIDS.user}`));
  });
});
