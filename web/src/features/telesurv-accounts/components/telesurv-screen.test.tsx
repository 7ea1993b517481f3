import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeTelesurvAccount, MIDS } from '../../../testing/management';
import { getSession } from '../../../lib/session';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn, type RecordedRequest } from '../../../testing/render-app';
import { renderScreen } from '../../../testing/render-screen';
import { besideAnchor } from './agences-popover';
import { TelesurvScreen } from './telesurv-screen';

const CENTRALE = makeTelesurvAccount();
const NORD = makeTelesurvAccount({ id: '70000000-0000-4000-8000-000000000002', nom: 'Veille Nord', agences_count: 0 });
const AGENCES = [
  { id: MIDS.agence, nom: 'Agence Lyon', assigned: true },
  { id: MIDS.agence2, nom: 'Agence Grenoble', assigned: false },
];

const editor = () => signIn(makeUser({ role: 'admin_plus', permissions: ['telesurveillance.edit'] }));

describe('Comptes télésurveillance screen', () => {
  it('lists the accounts with their agences_count, and the add button', async () => {
    editor();
    mockApi({ 'GET /api/telesurv': [CENTRALE, NORD] });
    renderApp('/telesurv');
    expect(await screen.findByRole('rowheader', { name: 'Centrale Sud' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Agences affectées à Centrale Sud : 2' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '+ Ajouter' })).toBeTruthy();
  });

  it("opens 'Agences affectées' on hover: 'Chargement…', then the names or 'Aucune agence affectée'", async () => {
    editor();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    mockApi({
      'GET /api/telesurv': [CENTRALE, NORD],
      'GET /api/telesurv/:id/agences': async (req: RecordedRequest) => {
        if (req.path.includes(CENTRALE.id)) await gate;
        return req.path.includes(CENTRALE.id) ? AGENCES : AGENCES.map((a) => ({ ...a, assigned: false }));
      },
    });
    const app = renderApp('/telesurv');
    await app.user.hover(await screen.findByRole('button', { name: 'Agences affectées à Centrale Sud : 2' }));
    const tip = screen.getByRole('tooltip');
    expect(within(tip).getByText('Agences affectées')).toBeTruthy();
    expect(within(tip).getByText('Chargement…')).toBeTruthy();
    release();
    expect(await within(tip).findByText('Agence Lyon')).toBeTruthy();
    expect(within(tip).queryByText('Agence Grenoble')).toBeNull();
    await app.user.unhover(screen.getByRole('button', { name: 'Agences affectées à Centrale Sud : 2' }));
    expect(screen.queryByRole('tooltip')).toBeNull();

    await app.user.hover(screen.getByRole('button', { name: 'Agences affectées à Veille Nord : 0' }));
    expect(await within(screen.getByRole('tooltip')).findByText('Aucune agence affectée')).toBeTruthy();
  });

  it("adds an account in 'Ajouter compte télésurveillance': nom, email and password required", async () => {
    editor();
    const mock = mockApi({ 'GET /api/telesurv': [CENTRALE], 'POST /api/telesurv': () => jsonResponse(201, { success: true, id: MIDS.user }) });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter compte télésurveillance' });
    expect(within(dialog).getByLabelText('Nom')).toBeTruthy();
    expect(within(dialog).getByLabelText('Téléphone')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toBeTruthy();
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Veille Est');
    await app.user.type(within(dialog).getByLabelText('Email'), 'est@example.fr');
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Nom, email et mot de passe sont requis');
    await app.user.type(within(dialog).getByLabelText('Mot de passe'), 'Veille-Est1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/telesurv')[0])).toEqual({ nom: 'Veille Est', email: 'est@example.fr', telephone: null, motdepasse: 'Veille-Est1' });
  });

  it('clears its banner once the fields are fixed, before the next submit (issue 18), and starts clean when reopened', async () => {
    editor();
    mockApi({ 'GET /api/telesurv': [CENTRALE] });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter' }));
    let dialog = screen.getByRole('dialog', { name: 'Ajouter compte télésurveillance' });
    await app.user.type(within(dialog).getByLabelText('Email'), 'est@example.fr');
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Nom, email et mot de passe sont requis');
    expect(within(dialog).getByLabelText('Nom').getAttribute('aria-invalid')).toBe('true');
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Veille Est');
    // The password is still missing: the sentence stays, the name is no longer marked.
    expect(within(dialog).getByRole('alert').textContent).toBe('Nom, email et mot de passe sont requis');
    expect(within(dialog).getByLabelText('Nom').getAttribute('aria-invalid')).toBeNull();
    await app.user.type(within(dialog).getByLabelText('Mot de passe'), 'Veille-Est1');
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await app.user.clear(within(dialog).getByLabelText('Nom'));
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    expect(within(dialog).getByRole('alert')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await app.user.click(screen.getByRole('button', { name: '+ Ajouter' }));
    dialog = screen.getByRole('dialog', { name: 'Ajouter compte télésurveillance' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it("shows the server's error on creation, else 'Erreur création'", async () => {
    editor();
    let answer = jsonResponse(400, { success: false, error: 'Cette adresse e-mail est déjà utilisée.' });
    mockApi({ 'GET /api/telesurv': [CENTRALE], 'POST /api/telesurv': () => answer });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter compte télésurveillance' });
    await app.user.type(within(dialog).getByLabelText('Nom'), 'Veille Est');
    await app.user.type(within(dialog).getByLabelText('Email'), 'est@example.fr');
    await app.user.type(within(dialog).getByLabelText('Mot de passe'), 'Veille-Est1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Cette adresse e-mail est déjà utilisée.');
    answer = jsonResponse(500, {});
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Erreur création'));
  });

  it("edits an account; a failure reads 'Erreur mise à jour'", async () => {
    editor();
    const mock = mockApi({ 'GET /api/telesurv': [CENTRALE], 'PUT /api/telesurv/:id': () => jsonResponse(500, {}) });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Centrale Sud' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier compte télésurveillance' });
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('centrale@example.fr');
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Erreur mise à jour');
    expect(sentBody(mock.calls('PUT /api/telesurv/:id')[0])).toEqual({ nom: 'Centrale Sud', email: 'centrale@example.fr', telephone: '04 00 00 00 00' });
  });

  it("assigns agencies in 'Affecter aux agences', replacing the whole set", async () => {
    editor();
    const mock = mockApi({
      'GET /api/telesurv': [CENTRALE],
      'GET /api/telesurv/:id/agences': AGENCES,
      'PUT /api/telesurv/:id/agences': { success: true },
    });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: 'Affecter Centrale Sud aux agences' }));
    const dialog = screen.getByRole('dialog', { name: 'Affecter aux agences' });
    const lyon = (await within(dialog).findByRole('checkbox', { name: 'Agence Lyon' })) as HTMLInputElement;
    expect(lyon.checked).toBe(true);
    await app.user.click(lyon);
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Agence Grenoble' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('PUT /api/telesurv/:id/agences')[0])).toEqual({ agences: [MIDS.agence2] });
  });

  it('assigns agencies on the version the account was listed at, keeps the ticks on a conflict and reloads them on request', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let accounts = [{ ...CENTRALE, version: 6 }];
    let assignments = AGENCES;
    const mock = mockApi({
      'GET /api/telesurv': () => accounts,
      'GET /api/telesurv/:id/agences': () => assignments,
      'PUT /api/telesurv/:id/agences': (req: RecordedRequest) =>
        (sentBody(req) as { version?: number }).version === 7 ? { success: true } : jsonResponse(409, { success: false, error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: 'Affecter Centrale Sud aux agences' }));
    const dialog = screen.getByRole('dialog', { name: 'Affecter aux agences' });
    const grenoble = (await within(dialog).findByRole('checkbox', { name: 'Agence Grenoble' })) as HTMLInputElement;
    // Somebody else takes Lyon off the account meanwhile.
    accounts = [{ ...CENTRALE, agences_count: 0, version: 7 }];
    assignments = AGENCES.map((agence) => ({ ...agence, assigned: false }));
    await app.user.click(grenoble);
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/telesurv/:id/agences')[0])).toEqual({ agences: [MIDS.agence2, MIDS.agence], version: 6 });
    expect((within(dialog).getByRole('checkbox', { name: 'Agence Grenoble' }) as HTMLInputElement).checked).toBe(true);
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((within(dialog).getByRole('checkbox', { name: 'Agence Lyon' }) as HTMLInputElement).checked).toBe(false));
    expect((within(dialog).getByRole('checkbox', { name: 'Agence Grenoble' }) as HTMLInputElement).checked).toBe(false);
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Agence Grenoble' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('PUT /api/telesurv/:id/agences')[1])).toEqual({ agences: [MIDS.agence2], version: 7 });
  });

  it('edits an account on the version it was listed at and keeps what was typed on a conflict', async () => {
    editor();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    const mock = mockApi({
      'GET /api/telesurv': [{ ...CENTRALE, version: 2 }],
      'PUT /api/telesurv/:id': () => jsonResponse(409, { success: false, error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Centrale Sud' }));
    const dialog = screen.getByRole('dialog', { name: 'Modifier compte télésurveillance' });
    await app.user.clear(within(dialog).getByLabelText('Téléphone'));
    await app.user.type(within(dialog).getByLabelText('Téléphone'), '04 99 99 99 99');
    await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(CONFLICT);
    expect(sentBody(mock.calls('PUT /api/telesurv/:id')[0])).toMatchObject({ telephone: '04 99 99 99 99', version: 2 });
    expect((within(dialog).getByLabelText('Téléphone') as HTMLInputElement).value).toBe('04 99 99 99 99');
  });

  it("says 'Aucune agence disponible.', 'Erreur chargement agences' and 'Erreur affectation'", async () => {
    editor();
    let agences: unknown = [];
    mockApi({
      'GET /api/telesurv': [CENTRALE],
      'GET /api/telesurv/:id/agences': () => (agences === 'fail' ? jsonResponse(500, {}) : agences),
      'PUT /api/telesurv/:id/agences': () => jsonResponse(500, { success: false }),
    });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: 'Affecter Centrale Sud aux agences' }));
    expect(await within(screen.getByRole('dialog')).findByText('Aucune agence disponible.')).toBeTruthy();
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Valider' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe('Erreur affectation');
    await app.user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Annuler' }));

    agences = 'fail';
    app.queryClient.clear();
    await app.user.click(screen.getByRole('button', { name: 'Affecter Centrale Sud aux agences' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe('Erreur chargement agences');
  });

  it("asks before deleting; a failure reads 'Erreur suppression'", async () => {
    editor();
    const mock = mockApi({ 'GET /api/telesurv': [CENTRALE], 'DELETE /api/telesurv/:id': () => jsonResponse(500, {}) });
    const app = renderApp('/telesurv');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer Centrale Sud' }));
    const dialog = screen.getByRole('dialog', { name: 'Supprimer le compte' });
    expect(within(dialog).getByText('Supprimer le compte télésurveillance « Centrale Sud » ?')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Erreur suppression');
    expect(mock.calls('DELETE /api/telesurv/:id')).toHaveLength(1);
  });

  describe('an account also assigned to agencies outside the caller’s scope (partage_hors_perimetre)', () => {
    const agencyAdmin = () => signIn(makeUser({ role: 'admin', permissions: ['telesurveillance.edit'] }));
    const NOTE = "Compte partagé avec d'autres agences : seul un administrateur plateforme peut changer son mot de passe ou le supprimer.";
    const REFUSED = "Ce compte télésurveillance est aussi affecté à une agence qui n'est pas la vôtre : seul un administrateur plateforme peut changer son mot de passe ou le supprimer.";
    const SHARED = { ...CENTRALE, partage_hors_perimetre: true };

    it('is not offered for deletion, and its edit has no password field; the screen says why', async () => {
      agencyAdmin();
      const mock = mockApi({ 'GET /api/telesurv': [SHARED, { ...NORD, partage_hors_perimetre: false }], 'PUT /api/telesurv/:id': { success: true } });
      const app = renderApp('/telesurv');
      await screen.findByRole('rowheader', { name: 'Centrale Sud' });
      expect(screen.queryByRole('button', { name: 'Supprimer Centrale Sud' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Supprimer Veille Nord' })).toBeTruthy();
      expect(within(screen.getByRole('row', { name: /Centrale Sud/ })).getByText("Compte partagé avec d'autres agences")).toBeTruthy();
      expect(screen.getByText(NOTE)).toBeTruthy();
      // Name, e-mail and phone stay editable: the server allows them.
      await app.user.click(screen.getByRole('button', { name: 'Modifier Centrale Sud' }));
      const dialog = screen.getByRole('dialog', { name: 'Modifier compte télésurveillance' });
      expect(within(dialog).queryByLabelText('Mot de passe')).toBeNull();
      expect(within(dialog).getByText(NOTE)).toBeTruthy();
      await app.user.clear(within(dialog).getByLabelText('Téléphone'));
      await app.user.type(within(dialog).getByLabelText('Téléphone'), '04 11 11 11 11');
      await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(sentBody(mock.calls('PUT /api/telesurv/:id')[0])).toEqual({ nom: 'Centrale Sud', email: 'centrale@example.fr', telephone: '04 11 11 11 11' });
    });

    it('offers both when the flag is false or absent (admin_plus, an older server)', async () => {
      editor();
      mockApi({ 'GET /api/telesurv': [{ ...CENTRALE, partage_hors_perimetre: false }, NORD] });
      const app = renderApp('/telesurv');
      expect(await screen.findByRole('button', { name: 'Supprimer Centrale Sud' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Supprimer Veille Nord' })).toBeTruthy();
      expect(screen.queryByText(NOTE)).toBeNull();
      await app.user.click(screen.getByRole('button', { name: 'Modifier Veille Nord' }));
      expect(within(screen.getByRole('dialog')).getByLabelText('Mot de passe')).toBeTruthy();
    });

    it('shows the server’s refusal of a password reset in the dialog and keeps the user signed in', async () => {
      agencyAdmin();
      // Shared since the list was read: the server refuses the reset.
      let listed = [CENTRALE];
      const mock = mockApi({
        'GET /api/telesurv': () => listed,
        'PUT /api/telesurv/:id': () => {
          listed = [SHARED];
          return jsonResponse(403, { success: false, error: REFUSED, code: 'FORBIDDEN' });
        },
      });
      const app = renderApp('/telesurv');
      await app.user.click(await screen.findByRole('button', { name: 'Modifier Centrale Sud' }));
      const dialog = screen.getByRole('dialog', { name: 'Modifier compte télésurveillance' });
      await app.user.type(within(dialog).getByLabelText('Mot de passe'), 'Pivot-2026!x');
      await app.user.click(within(dialog).getByRole('button', { name: 'Valider' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe(REFUSED);
      expect(sentBody(mock.calls('PUT /api/telesurv/:id')[0])).toMatchObject({ motdepasse: 'Pivot-2026!x' });
      expect(getSession()).not.toBeNull();
      expect(screen.getByRole('dialog', { name: 'Modifier compte télésurveillance' })).toBeTruthy();
      // The list is read again, and the row now holds back Supprimer.
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Supprimer Centrale Sud' })).toBeNull());
    });

    it('shows the server’s refusal of a deletion in the confirmation and keeps the user signed in', async () => {
      agencyAdmin();
      let listed = [CENTRALE];
      mockApi({
        'GET /api/telesurv': () => listed,
        'DELETE /api/telesurv/:id': () => {
          listed = [SHARED];
          return jsonResponse(403, { success: false, error: REFUSED, code: 'FORBIDDEN' });
        },
      });
      const app = renderApp('/telesurv');
      await app.user.click(await screen.findByRole('button', { name: 'Supprimer Centrale Sud' }));
      const dialog = screen.getByRole('dialog', { name: 'Supprimer le compte' });
      await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe(REFUSED);
      expect(getSession()).not.toBeNull();
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Supprimer Centrale Sud' })).toBeNull());
    });
  });

  it('hides the add button without telesurveillance.edit', async () => {
    signIn(makeUser({ role: 'admin', permissions: [] }));
    mockApi({ 'GET /api/telesurv': [CENTRALE] });
    renderScreen(<TelesurvScreen />);
    await screen.findByRole('rowheader', { name: 'Centrale Sud' });
    expect(screen.queryByRole('button', { name: '+ Ajouter' })).toBeNull();
  });
});

describe("'Agences affectées' popover placement", () => {
  const row = { top: 200, bottom: 230 };
  it("opens beside the count, level with its row, never over the next row's buttons; clicks go through it", () => {
    expect(besideAnchor({ ...row, left: 300, right: 340 }, 1280)).toEqual({ position: 'fixed', pointerEvents: 'none', top: 200, left: 348 });
    // Near the right edge: on the left of the count, still level with its row.
    expect(besideAnchor({ ...row, left: 1100, right: 1140 }, 1280)).toEqual({ position: 'fixed', pointerEvents: 'none', top: 200, right: 188 });
  });

  it('on a phone, with room on neither side, goes below and stays on screen', () => {
    expect(besideAnchor({ ...row, left: 180, right: 220 }, 390)).toEqual({ position: 'fixed', pointerEvents: 'none', top: 234, left: 142 });
  });
});
