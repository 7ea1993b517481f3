import { MANAGEMENT_MESSAGES as M } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY } from '../../../lib/session';
import { makeAgence, MIDS } from '../../../testing/management';
import { jsonResponse, makeUser, mockApi, renderApp, sentBody, signIn } from '../../../testing/render-app';

const LYON = makeAgence();
const GRENOBLE = makeAgence({ id: MIDS.agence2, nom: 'Agence Grenoble', ville: 'Grenoble', cp_postal: '38000', adresse: '2 place Grenette' });
const WEEK = [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, morning_open: '08:00', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '17:30' }));
const FORBIDDEN = "Accès refusé: vous n'avez pas la permission de créer/modifier/supprimer une agence.";

function api(overrides: Record<string, unknown> = {}) {
  return mockApi({
    'GET /api/agences': [LYON, GRENOBLE],
    'GET /api/agences/:id/horaires': WEEK,
    'PUT /api/agences/:id/horaires': (req: { init: RequestInit }) => JSON.parse(String(req.init.body)),
    ...overrides,
  });
}

const adminPlus = () => signIn(makeUser({ role: 'admin_plus', permissions: [] }));
const timeValue = (dialog: HTMLElement, name: string) => (within(dialog).getByLabelText(name) as HTMLInputElement).value;

describe('Agences screen', () => {
  it('lists the agencies and filters them with the search box', async () => {
    adminPlus();
    api();
    const app = renderApp('/agences');
    expect(await screen.findByRole('rowheader', { name: 'Agence Lyon' })).toBeTruthy();
    expect(screen.getByRole('rowheader', { name: 'Agence Grenoble' })).toBeTruthy();
    await app.user.type(screen.getByLabelText('Rechercher une agence'), '38000');
    expect(screen.queryByRole('rowheader', { name: 'Agence Lyon' })).toBeNull();
    expect(screen.getByRole('rowheader', { name: 'Agence Grenoble' })).toBeTruthy();
  });

  it('adds an agency: every field required, half-days ticked to their defaults and unticked to null', async () => {
    adminPlus();
    const mock = api({ 'POST /api/agences': () => jsonResponse(201, makeAgence({ id: MIDS.agence2, nom: 'Agence Annecy' })) });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: '+ Ajouter une agence' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajouter une agence' });

    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(within(dialog).getByText(M.agenceNomRequired)).toBeTruthy();
    expect(within(dialog).getByText(M.agenceTelephoneRequired)).toBeTruthy();
    expect(mock.calls('POST /api/agences')).toHaveLength(0);

    const monday = within(dialog).getByRole('checkbox', { name: 'Lundi matin' }) as HTMLInputElement;
    expect(monday.checked).toBe(true);
    expect(timeValue(dialog, 'Lundi matin, ouverture')).toBe('08:00');
    expect(timeValue(dialog, 'Lundi matin, fermeture')).toBe('12:00');
    await app.user.click(monday);
    expect(monday.checked).toBe(false);
    expect(within(dialog).queryByLabelText('Lundi matin, ouverture')).toBeNull();
    expect(within(dialog).getByText('Fermé')).toBeTruthy();
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Vendredi après-midi' }));
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Vendredi après-midi' }));
    expect(timeValue(dialog, 'Vendredi après-midi, ouverture')).toBe('13:30');
    expect(timeValue(dialog, 'Vendredi après-midi, fermeture')).toBe('17:30');

    await app.user.type(within(dialog).getByLabelText('Nom'), 'Agence Annecy');
    await app.user.type(within(dialog).getByLabelText('Adresse'), '1 rue Royale');
    await app.user.type(within(dialog).getByLabelText('Code postal'), '74000');
    await app.user.type(within(dialog).getByLabelText('Ville'), 'Annecy');
    await app.user.type(within(dialog).getByLabelText('Téléphone'), '04 50 00 00 00');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('POST /api/agences')[0])).toEqual({
      nom: 'Agence Annecy',
      adresse: '1 rue Royale',
      cp_postal: '74000',
      ville: 'Annecy',
      telephone: '04 50 00 00 00',
    });
    const week = sentBody(mock.calls('PUT /api/agences/:id/horaires')[0]) as typeof WEEK;
    expect(mock.calls('PUT /api/agences/:id/horaires')[0]?.path).toBe(`/api/agences/${MIDS.agence2}/horaires`);
    expect(week[0]).toEqual({ day_of_week: 1, morning_open: null, morning_close: null, afternoon_open: '13:30', afternoon_close: '17:30' });
    expect(week[4]).toEqual(WEEK[4]);
  });

  it('edits an agency and its hours', async () => {
    adminPlus();
    const mock = api({ 'PUT /api/agences/:id': (req: { init: RequestInit }) => ({ ...LYON, ...JSON.parse(String(req.init.body)) }) });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    const wednesday = (await within(dialog).findByRole('checkbox', { name: 'Mercredi après-midi' })) as HTMLInputElement;
    await app.user.click(wednesday);
    const phone = within(dialog).getByLabelText('Téléphone');
    await app.user.clear(phone);
    await app.user.type(phone, '04 78 99 99 99');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('PUT /api/agences/:id')[0])).toMatchObject({ nom: 'Agence Lyon', telephone: '04 78 99 99 99' });
    const week = sentBody(mock.calls('PUT /api/agences/:id/horaires')[0]) as typeof WEEK;
    expect(week[2]).toMatchObject({ day_of_week: 3, afternoon_open: null, afternoon_close: null, morning_open: '08:00' });
  });

  it('sets any opening and closing time of a half-day, with or without a midday break, from the keyboard', async () => {
    adminPlus();
    const mock = api({ 'PUT /api/agences/:id': (req: { init: RequestInit }) => ({ ...LYON, ...JSON.parse(String(req.init.body)) }) });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    // Tuesday without a break, 07:30–19:00; Thursday keeps its break but opens early and closes late.
    const tuesdayOpen = await within(dialog).findByLabelText('Mardi matin, ouverture');
    await app.user.clear(tuesdayOpen);
    await app.user.type(tuesdayOpen, '07:30');
    await app.user.tab();
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Mardi matin, fermeture'));
    await app.user.clear(within(dialog).getByLabelText('Mardi matin, fermeture'));
    await app.user.type(within(dialog).getByLabelText('Mardi matin, fermeture'), '19:00');
    await app.user.click(within(dialog).getByRole('checkbox', { name: 'Mardi après-midi' }));
    await app.user.clear(within(dialog).getByLabelText('Jeudi matin, ouverture'));
    await app.user.type(within(dialog).getByLabelText('Jeudi matin, ouverture'), '06:45');
    await app.user.clear(within(dialog).getByLabelText('Jeudi après-midi, fermeture'));
    await app.user.type(within(dialog).getByLabelText('Jeudi après-midi, fermeture'), '20:15');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const week = sentBody(mock.calls('PUT /api/agences/:id/horaires')[0]) as typeof WEEK;
    expect(week[1]).toEqual({ day_of_week: 2, morning_open: '07:30', morning_close: '19:00', afternoon_open: null, afternoon_close: null });
    expect(week[3]).toEqual({ day_of_week: 4, morning_open: '06:45', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '20:15' });
    expect(week[0]).toEqual(WEEK[0]);
  });

  it('refuses hours out of order or half-filled with the API’s French messages, sends nothing, and clears each message once fixed', async () => {
    adminPlus();
    const mock = api({ 'PUT /api/agences/:id': (req: { init: RequestInit }) => ({ ...LYON, ...JSON.parse(String(req.init.body)) }) });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    const mondayClose = await within(dialog).findByLabelText('Lundi matin, fermeture');
    await app.user.clear(mondayClose);
    await app.user.type(mondayClose, '07:00');
    await app.user.clear(within(dialog).getByLabelText('Mercredi après-midi, ouverture'));
    await app.user.clear(within(dialog).getByLabelText('Vendredi après-midi, ouverture'));
    await app.user.type(within(dialog).getByLabelText('Vendredi après-midi, ouverture'), '11:00');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    expect(within(dialog).getByText(M.horaireMorningOrder)).toBeTruthy();
    expect(within(dialog).getByText(M.horaireAfternoonPair)).toBeTruthy();
    expect(within(dialog).getByText(M.horaireHalfDaysOverlap)).toBeTruthy();
    expect(mondayClose.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(mondayClose.getAttribute('aria-describedby') ?? '')?.textContent).toBe(M.horaireMorningOrder);
    expect(within(dialog).getByLabelText('Lundi matin, ouverture').getAttribute('aria-invalid')).toBeNull();
    expect(mock.calls('PUT /api/agences/:id')).toHaveLength(0);
    expect(mock.calls('PUT /api/agences/:id/horaires')).toHaveLength(0);

    await app.user.clear(mondayClose);
    await app.user.type(mondayClose, '12:15');
    expect(within(dialog).queryByText(M.horaireMorningOrder)).toBeNull();
    expect(mondayClose.getAttribute('aria-invalid')).toBeNull();
    await app.user.type(within(dialog).getByLabelText('Mercredi après-midi, ouverture'), '14:00');
    await app.user.clear(within(dialog).getByLabelText('Vendredi après-midi, ouverture'));
    await app.user.type(within(dialog).getByLabelText('Vendredi après-midi, ouverture'), '13:00');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const week = sentBody(mock.calls('PUT /api/agences/:id/horaires')[0]) as typeof WEEK;
    expect(week.map((day) => [day.morning_close, day.afternoon_open])).toEqual([
      ['12:15', '13:30'],
      ['12:00', '13:30'],
      ['12:00', '14:00'],
      ['12:00', '13:30'],
      ['12:00', '13:00'],
    ]);
  });

  it('saves on the version it loaded: the agency in its body, the hours as If-Match on the version the save answered', async () => {
    adminPlus();
    const mock = api({
      'GET /api/agences': [{ ...LYON, version: 3 }, GRENOBLE],
      'PUT /api/agences/:id': (req: { init: RequestInit }) => ({ ...LYON, ...JSON.parse(String(req.init.body)), version: 4 }),
    });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    await app.user.click(await within(dialog).findByRole('checkbox', { name: 'Mercredi après-midi' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentBody(mock.calls('PUT /api/agences/:id')[0])).toMatchObject({ nom: 'Agence Lyon', version: 3 });
    expect(new Headers(mock.calls('PUT /api/agences/:id/horaires')[0]?.init.headers).get('If-Match')).toBe('"4"');
  });

  it('keeps what was typed when somebody else changed the agency meanwhile, and reloads its current values on request', async () => {
    adminPlus();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let current = { ...LYON, version: 3 };
    const puts: unknown[] = [];
    const mock = api({
      'GET /api/agences': () => [current, GRENOBLE],
      'PUT /api/agences/:id': (req: { init: RequestInit }) => {
        const body = JSON.parse(String(req.init.body)) as { version?: number };
        puts.push(body);
        if (body.version !== current.version) return jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' });
        current = { ...current, ...body, version: current.version + 1 };
        return current;
      },
    });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    await within(dialog).findByRole('checkbox', { name: 'Lundi matin' });
    // Another admin renames the agency while the dialog is open.
    current = { ...current, nom: 'Agence Lyon Part-Dieu', version: 4 };
    const phone = within(dialog).getByLabelText('Téléphone');
    await app.user.clear(phone);
    await app.user.type(phone, '04 78 99 99 99');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(puts[0]).toMatchObject({ telephone: '04 78 99 99 99', version: 3 });
    expect(screen.getByRole('dialog', { name: "Modifier l'agence" })).toBe(dialog);
    expect((within(dialog).getByLabelText('Téléphone') as HTMLInputElement).value).toBe('04 78 99 99 99');
    expect((within(dialog).getByLabelText('Nom') as HTMLInputElement).value).toBe('Agence Lyon');

    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect((within(dialog).getByLabelText('Nom') as HTMLInputElement).value).toBe('Agence Lyon Part-Dieu'));
    expect((within(dialog).getByLabelText('Téléphone') as HTMLInputElement).value).toBe('04 78 00 00 00');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await app.user.clear(within(dialog).getByLabelText('Téléphone'));
    await app.user.type(within(dialog).getByLabelText('Téléphone'), '04 78 99 99 99');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts[1]).toMatchObject({ nom: 'Agence Lyon Part-Dieu', telephone: '04 78 99 99 99', version: 4 });
    expect(mock.calls('PUT /api/agences/:id')).toHaveLength(2);
  });

  it('keeps the typed hours when the week changed meanwhile (409 on the hours), and reloads the current week on request', async () => {
    adminPlus();
    const CONFLICT = 'Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.';
    let current = WEEK;
    const mock = api({
      'GET /api/agences': [{ ...LYON, version: 3 }, GRENOBLE],
      'GET /api/agences/:id/horaires': () => current,
      'PUT /api/agences/:id': (req: { init: RequestInit }) => ({ ...LYON, ...JSON.parse(String(req.init.body)), version: 4 }),
      'PUT /api/agences/:id/horaires': () => jsonResponse(409, { error: CONFLICT, code: 'CONFLICT' }),
    });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    const tuesdayOpen = await within(dialog).findByLabelText('Mardi matin, ouverture');
    // Another admin closes Friday afternoon while the dialog is open.
    current = WEEK.map((day) => (day.day_of_week === 5 ? { ...day, afternoon_open: null, afternoon_close: null } : day)) as typeof WEEK;
    await app.user.clear(tuesdayOpen);
    await app.user.type(tuesdayOpen, '07:30');
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(CONFLICT);
    expect(mock.calls('PUT /api/agences/:id/horaires')).toHaveLength(1);
    expect(timeValue(dialog, 'Mardi matin, ouverture')).toBe('07:30');
    await app.user.click(within(alert).getByRole('button', { name: 'Recharger la fiche' }));
    await waitFor(() => expect(timeValue(dialog, 'Mardi matin, ouverture')).toBe('08:00'));
    expect((within(dialog).getByRole('checkbox', { name: 'Vendredi après-midi' }) as HTMLInputElement).checked).toBe(false);
  });

  it("shows the spec's sentence on a 403 and keeps the session", async () => {
    signIn(makeUser({ role: 'admin', permissions: ['agences.view', 'agences.edit'] }));
    api({ 'PUT /api/agences/:id': () => jsonResponse(403, { error: 'Accès refusé.' }) });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Modifier Agence Lyon' }));
    const dialog = screen.getByRole('dialog', { name: "Modifier l'agence" });
    await within(dialog).findByRole('checkbox', { name: 'Lundi matin' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(FORBIDDEN);
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('test-token');
    expect(app.pathname()).toBe('/agences');
  });

  it('asks before deleting and shows why a delete was refused', async () => {
    adminPlus();
    const mock = api({ 'DELETE /api/agences/:id': () => jsonResponse(409, { error: M.agenceHasClients }) });
    const app = renderApp('/agences');
    await app.user.click(await screen.findByRole('button', { name: 'Supprimer Agence Grenoble' }));
    const dialog = screen.getByRole('dialog', { name: "Supprimer l'agence" });
    expect(within(dialog).getByText("Supprimer l'agence « Agence Grenoble » ?")).toBeTruthy();
    expect(mock.calls('DELETE /api/agences/:id')).toHaveLength(0);
    await app.user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(M.agenceHasClients);
    expect(mock.calls('DELETE /api/agences/:id')[0]?.path).toBe(`/api/agences/${MIDS.agence2}`);
  });

  it('is read-only with agences.view alone, and only admin_plus may add', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['agences.view'] }));
    api();
    renderApp('/agences');
    await screen.findByRole('rowheader', { name: 'Agence Lyon' });
    expect(screen.queryByRole('button', { name: '+ Ajouter une agence' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Modifier Agence Lyon' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
