import { MANAGEMENT_MESSAGES as M } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeMetier, MIDS } from '../../../testing/management';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn, type RecordedRequest } from '../../../testing/render-app';
import { renderScreen } from '../../../testing/render-screen';
import { MetiersScreen } from './metiers-screen';

const INCENDIE = makeMetier();
const ELEC = makeMetier({ id: MIDS.metier2, nom: 'Électricité', ordre: 2, delai_inter: 8, HO_stats: 1 });
const CVC = makeMetier({ id: MIDS.metier3, nom: 'CVC', ordre: null, delai_inter: null });

const editor = () => signIn(makeUser({ role: 'admin_plus', permissions: ['metier.edit'] }));

describe('Métiers screen', () => {
  it('shows the columns and the trades in their order, unnumbered last', async () => {
    editor();
    mockApi({ 'GET /api/metiers': [CVC, ELEC, INCENDIE] });
    renderApp('/metiers');
    await screen.findByRole('rowheader', { name: 'CVC' });
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    expect(headers).toEqual(['Ordre', 'Nom', 'Délai (h)', 'Jours non ouvrés (stats)', 'Actions']);
    expect(screen.getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['Sécurité incendie', 'Électricité', 'CVC']);
  });

  it('renumbers every row after a move and saves the new order', async () => {
    editor();
    const mock = mockApi({
      'GET /api/metiers': [INCENDIE, ELEC, CVC],
      'PUT /api/metiers/reorder': [
        { ...ELEC, ordre: 1 },
        { ...INCENDIE, ordre: 2 },
        { ...CVC, ordre: 3 },
      ],
    });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Descendre Sécurité incendie' }));
    await waitFor(() => expect(mock.calls('PUT /api/metiers/reorder')).toHaveLength(1));
    expect(sentBody(mock.calls('PUT /api/metiers/reorder')[0])).toEqual([
      { id: MIDS.metier2, ordre: 1 },
      { id: MIDS.metier, ordre: 2 },
      { id: MIDS.metier3, ordre: 3 },
    ]);
    await waitFor(() => expect(screen.getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['Électricité', 'Sécurité incendie', 'CVC']));
    expect((screen.getByRole('button', { name: 'Monter Électricité' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends each row with the version it was listed at, so an order made on a changed list is refused and the list reloads', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    const mock = mockApi({
      'GET /api/metiers': [
        { ...INCENDIE, version: 3 },
        { ...ELEC, version: 7 },
      ],
      'PUT /api/metiers/reorder': () => jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Monter Électricité' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Impossible de sauvegarder le nouvel ordre');
    expect(sentBody(mock.calls('PUT /api/metiers/reorder')[0])).toEqual([
      { id: MIDS.metier2, ordre: 1, version: 7 },
      { id: MIDS.metier, ordre: 2, version: 3 },
    ]);
    await waitFor(() => expect(mock.calls('GET /api/metiers').length).toBeGreaterThanOrEqual(2));
  });

  it('edits a trade on the version it was listed at and keeps what was typed on a conflict', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let listed = [{ ...INCENDIE, version: 3 }];
    const mock = mockApi({
      'GET /api/metiers': () => listed,
      'PUT /api/metiers/:id': (req: RecordedRequest) =>
        (sentBody(req) as { version?: number }).version === 4 ? { ...listed[0], ...(sentBody(req) as object) } : jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Sécurité incendie' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier le métier' });
    listed = [{ ...INCENDIE, delai_inter: 2, version: 4 }];
    await app.user.clear(within(dialog).getByLabelText('Nom'));
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Incendie');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/metiers/:id')[0])).toMatchObject({ nom: 'Incendie', version: 3 });
    expect((within(dialog).getByLabelText('Nom') as HTMLInputElement).value).toBe('Incendie');
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((within(dialog).getByLabelText('Délai (h)') as HTMLInputElement).value).toBe('2'));
    expect((within(dialog).getByLabelText('Nom') as HTMLInputElement).value).toBe('Sécurité incendie');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('PUT /api/metiers/:id')[1])).toMatchObject({ delai_inter: 2, version: 4 });
  });

  it('alerts and reloads the list when the new order cannot be saved', async () => {
    editor();
    const mock = mockApi({ 'GET /api/metiers': [INCENDIE, ELEC], 'PUT /api/metiers/reorder': () => jsonResponse(500, {}) });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Monter Électricité' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Impossible de sauvegarder le nouvel ordre');
    await waitFor(() => expect(mock.calls('GET /api/metiers').length).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(screen.getAllByRole('rowheader').map((th) => th.textContent)).toEqual(['Sécurité incendie', 'Électricité']));
  });

  it('offers keyboard dragging on a labelled handle', async () => {
    editor();
    mockApi({ 'GET /api/metiers': [INCENDIE, ELEC] });
    renderApp('/metiers');
    const handle = await screen.findByRole('button', { name: 'Déplacer Sécurité incendie' });
    expect(handle.getAttribute('aria-roledescription')).toBe('sortable');
    expect(handle.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(handle.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/Espace ou Entrée/);
  });

  it('toggles HO_stats with the whole trade and alerts on failure', async () => {
    editor();
    const mock = mockApi({
      'GET /api/metiers': [INCENDIE, ELEC],
      'PUT /api/metiers/:id': (req: RecordedRequest) => (req.path.endsWith(MIDS.metier) ? { ...INCENDIE, HO_stats: 1 } : jsonResponse(500, {})),
    });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('checkbox', { name: 'Jours non ouvrés comptés dans les statistiques : Sécurité incendie' }));
    await waitFor(() => expect(mock.calls('PUT /api/metiers/:id')).toHaveLength(1));
    expect(sentBody(mock.calls('PUT /api/metiers/:id')[0])).toEqual({ nom: 'Sécurité incendie', ordre: 1, delai_inter: 4, HO_stats: 1 });

    await app.user.click(screen.getByRole('checkbox', { name: 'Jours non ouvrés comptés dans les statistiques : Électricité' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Impossible de mettre à jour HO_stats');
  });

  it('adds a trade: name required, empty ordre null, delay floored', async () => {
    editor();
    const mock = mockApi({ 'GET /api/metiers': [INCENDIE], 'POST /api/metiers': () => jsonResponse(201, makeMetier({ id: MIDS.metier2, nom: 'Plomberie' })) });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter un métier' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByText(M.metierNomRequired)).toBeTruthy();
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Plomberie');
    // The message goes with the fix, before any new save (issue 18).
    expect(within(dialog).queryByText(M.metierNomRequired)).toBeNull();
    expect(within(dialog).getByLabelText('Nom').getAttribute('aria-invalid')).not.toBe('true');
    await app.user.type(within(dialog).getByLabelText('Délai (h)'), '2.7');
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Jours non ouvrés comptés dans les statistiques' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/metiers')[0])).toEqual({ nom: 'Plomberie', ordre: null, delai_inter: 2, HO_stats: 1 });
  });

  it("shows the server's words when a save fails, else 'Erreur'", async () => {
    editor();
    mockApi({ 'GET /api/metiers': [INCENDIE], 'PUT /api/metiers/:id': () => jsonResponse(409, { error: M.metierNomTaken }) });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Sécurité incendie' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier le métier' });
    expect((within(dialog).getByLabelText('Ordre') as HTMLInputElement).value).toBe('1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(M.metierNomTaken);
  });

  it("asks 'Supprimer ce métier ?' before deleting", async () => {
    editor();
    const mock = mockApi({ 'GET /api/metiers': [INCENDIE], 'DELETE /api/metiers/:id': { success: true } });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer Sécurité incendie' }));
    const dialog = screen.getByRole('dialog', { name: 'Supprimer le métier' });
    expect(within(dialog).getByText('Supprimer ce métier ?')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(mock.calls('DELETE /api/metiers/:id')).toHaveLength(1));
  });

  it('closes the gap in Ordre after a delete: the rows after it are renumbered', async () => {
    editor();
    const PLOMBERIE = makeMetier({ id: MIDS.metier3, nom: 'Plomberie', ordre: 3 });
    const mock = mockApi({
      'GET /api/metiers': [INCENDIE, ELEC, PLOMBERIE],
      'DELETE /api/metiers/:id': { success: true },
      'PUT /api/metiers/reorder': [
        { ...INCENDIE, ordre: 1 },
        { ...PLOMBERIE, ordre: 2 },
      ],
    });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer Électricité' }));
    await app.user.click(within(screen.getByRole('dialog', { name: 'Supprimer le métier' })).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(mock.calls('PUT /api/metiers/reorder')).toHaveLength(1));
    expect(sentBody(mock.calls('PUT /api/metiers/reorder')[0])).toEqual([
      { id: MIDS.metier, ordre: 1 },
      { id: MIDS.metier3, ordre: 2 },
    ]);
  });

  it('renumbers nothing when the deleted trade left no gap', async () => {
    editor();
    const mock = mockApi({ 'GET /api/metiers': [INCENDIE, ELEC, CVC], 'DELETE /api/metiers/:id': { success: true } });
    const app = renderApp('/metiers');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer CVC' }));
    await app.user.click(within(screen.getByRole('dialog', { name: 'Supprimer le métier' })).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(mock.calls('DELETE /api/metiers/:id')).toHaveLength(1));
    await screen.findByText('Métier supprimé.');
    expect(mock.calls('PUT /api/metiers/reorder')).toHaveLength(0);
  });

  it("shows 'Erreur chargement' when the list cannot be loaded", async () => {
    editor();
    mockApi({ 'GET /api/metiers': () => jsonResponse(500, {}) });
    renderApp('/metiers');
    expect((await screen.findByRole('alert')).textContent).toBe('Erreur chargement');
  });

  it('is read-only without metier.edit', async () => {
    signIn(makeUser({ role: 'admin', permissions: [] }));
    mockApi({ 'GET /api/metiers': [INCENDIE, ELEC] });
    renderScreen(<MetiersScreen />);
    await screen.findByRole('rowheader', { name: 'Électricité' });
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: '+ Ajouter' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Déplacer/ })).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.getByRole('row', { name: /Électricité/ }).textContent).toContain('Oui');
  });
});
