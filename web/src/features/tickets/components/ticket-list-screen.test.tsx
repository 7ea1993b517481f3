import { defaultClosedTicketsRange } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeInstallation, makeMetier, makeSite } from '../../../testing/management';
import { IDS, jsonResponse, makeTicket, makeUser, mockApi, pagedTickets, renderApp, sentBody, signIn } from '../../../testing/render-app';

const urgent = makeTicket({ id: IDS.ticket, num_chrono: 'LYO-2026-0003', urgent: true, statut: 'en_cours', client_nom: 'Clinique Sud', created_at: '2026-03-09T08:00:00.000Z', technicien_prenom: 'Lucie', technicien_nom: 'Petit', id_technicien: IDS.technicien });
const opened = makeTicket({ id: IDS.ticket2, num_chrono: 'LYO-2026-0002', statut: 'ouvert', client_nom: 'Hôpital Nord', created_at: '2026-03-10T08:00:00.000Z', photo: '/api/files/photo-1' });
const inIntervention = makeTicket({
  id: IDS.ticket3,
  num_chrono: 'LYO-2026-0001',
  statut: 'intervention',
  client_nom: 'Mairie',
  created_at: '2026-03-11T08:00:00.000Z',
  devis: 1,
  date_devis: '2026-03-11T09:00:00.000Z',
});

function cards() {
  return screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
}

describe('ticket list, open view', () => {
  it("shows 'Tickets Ouverts', 'Chargement…' then the cards in the server's order", async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([urgent, opened, inIntervention]) });
    renderApp('/tickets');
    expect(screen.getByRole('heading', { level: 1, name: 'Tickets Ouverts' })).toBeTruthy();
    expect(screen.getByText('Chargement…')).toBeTruthy();
    await screen.findAllByRole('article');
    // The server sorts (spec §4: urgent first, then ouvert, then the other open ones).
    expect(cards()).toEqual(['Clinique Sud LYO-2026-0003', 'Hôpital Nord LYO-2026-0002', 'Mairie LYO-2026-0001']);
  });

  it('reads a whole unpaged list (a server that ignores limit) as one page', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': [opened] });
    renderApp('/tickets');
    expect(await screen.findByRole('link', { name: /Hôpital Nord/ })).toBeTruthy();
  });

  it('shows every field of a card with its label', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([urgent, inIntervention]) });
    renderApp('/tickets');
    const card = within((await screen.findAllByRole('article'))[0]!);
    expect(card.getByText('Clinique Sud')).toBeTruthy();
    expect(card.getByText('LYO-2026-0003')).toBeTruthy();
    expect(card.getByText('Urgent')).toBeTruthy();
    expect(card.getByText('En cours')).toBeTruthy();
    expect(card.getByText('Lucie Petit')).toBeTruthy();
    expect(card.getByText('Bâtiment A')).toBeTruthy();
    expect(card.getByText('SSI catégorie A')).toBeTruthy();
    expect(card.getByText('09/03/2026 09:00')).toBeTruthy();
    // intervention reads "En cours" on a card (spec §4) and carries the pending-quote icon.
    const other = within(screen.getAllByRole('article')[1]!);
    expect(other.getByText('En cours')).toBeTruthy();
    expect(other.getByText('Non pris en charge')).toBeTruthy();
    expect(other.getByRole('img', { name: 'Devis non validé' })).toBeTruthy();
  });

  it('filters with the chips and keeps the choice in the URL', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([urgent, opened, inIntervention]) });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    expect(screen.getByRole('button', { name: /^Tout/ }).getAttribute('aria-pressed')).toBe('true');

    await app.user.click(screen.getByRole('button', { name: /^Urgents/ }));
    expect(cards()).toEqual(['Clinique Sud LYO-2026-0003']);
    expect(app.router.state.location.search).toBe('?urgent=1');

    await app.user.click(screen.getByRole('button', { name: /^Interventions/ }));
    expect(cards()).toEqual(['Mairie LYO-2026-0001']);
    expect(app.router.state.location.search).toBe('?statut=intervention');

    await app.user.click(screen.getByRole('button', { name: /^Tout/ }));
    expect(cards()).toHaveLength(3);
  });

  it.each([
    ['?statut=ouvert', 'Ouverts', ['Hôpital Nord LYO-2026-0002']],
    ['?statut=en_cours', 'En cours', ['Clinique Sud LYO-2026-0003']],
    ['?urgent=1', 'Urgents', ['Clinique Sud LYO-2026-0003']],
    ['?devis_attente=1', 'Tout', ['Mairie LYO-2026-0001']],
  ])('opens %s with the %s chip', async (search, chip, expected) => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([urgent, opened, inIntervention]) });
    renderApp(`/tickets${search}`);
    await screen.findAllByRole('article');
    expect(screen.getByRole('button', { name: new RegExp(`^${chip}`) }).getAttribute('aria-pressed')).toBe('true');
    expect(cards()).toEqual(expected);
  });

  it('narrows the cards with the quick search, focused with /', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([urgent, opened, inIntervention]) });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    await app.user.keyboard('/');
    const search = screen.getByRole('searchbox', { name: 'Rechercher un ticket' });
    expect(document.activeElement).toBe(search);
    await app.user.type(search, 'mairie');
    expect(cards()).toEqual(['Mairie LYO-2026-0001']);
    await app.user.clear(search);
    await app.user.type(search, '0002');
    expect(cards()).toEqual(['Hôpital Nord LYO-2026-0002']);
    await app.user.type(search, 'x');
    expect(screen.getByText(/Aucun ticket ne correspond/)).toBeTruthy();
  });

  it("shows 'Aucun ticket en cours.' when there is none", async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([]) });
    renderApp('/tickets');
    expect(await screen.findByText('Aucun ticket en cours.')).toBeTruthy();
  });

  it('opens the thumbnail full size in an overlay', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([opened]) });
    const app = renderApp('/tickets');
    await app.user.click(await screen.findByRole('button', { name: 'Agrandir la photo du ticket LYO-2026-0002' }));
    const dialog = screen.getByRole('dialog', { name: 'Photo' });
    expect(within(dialog).getByRole('img', { name: 'Photo du ticket LYO-2026-0002' }).getAttribute('src')).toBe('/api/files/photo-1');
    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.pathname()).toBe('/tickets');
  });

  it('opens the detail from a card', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([opened]), 'GET /api/tickets/:id': opened });
    const app = renderApp('/tickets');
    await app.user.click(await screen.findByRole('link', { name: /Hôpital Nord/ }));
    expect(app.pathname()).toBe(`/tickets/${IDS.ticket2}`);
  });

  it('shows the server error when the list cannot load', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': jsonResponse(500, { error: 'Base indisponible' }) });
    renderApp('/tickets');
    expect((await screen.findByRole('alert')).textContent).toBe('Base indisponible');
  });
});

describe('ticket list pages (issue #19)', () => {
  const many = (count: number, statut: 'ouvert' | 'clos') =>
    Array.from({ length: count }, (_, i) =>
      makeTicket({
        id: `11111111-1111-4111-8111-${String(i).padStart(12, '0')}`,
        num_chrono: `LYO-2026-${String(i + 1).padStart(4, '0')}`,
        client_nom: `Client ${i + 1}`,
        statut,
        clos_at: statut === 'clos' ? '2026-03-10T10:00:00.000Z' : null,
      }),
    );

  it('shows the true total at once, not the number of cards loaded', async () => {
    signIn();
    const api = mockApi({
      'GET /api/tickets/clos': { tickets: many(2, 'clos'), next_cursor: 'c2', total: 8172 },
    });
    renderApp('/tickets?statut=clos');
    await screen.findAllByRole('article');
    expect(screen.getByText(/^8\s172 tickets$/)).toBeTruthy();
    expect(api.calls('GET /api/tickets/clos')[0]!.query.get('limit')).toBe('60');
  });

  /** happy-dom lays nothing out: rows get a height, the window a scroll position. */
  function layOut(rowHeight: number) {
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(rowHeight);
  }
  function scrollTo(y: number) {
    window.scrollTo(0, y);
    window.dispatchEvent(new Event('scroll'));
  }

  it("draws the cards on screen only, and loads the next page with the previous page's cursor when the end comes into view", async () => {
    signIn();
    layOut(200);
    const api = mockApi({ 'GET /api/tickets/clos': pagedTickets(many(70, 'clos')) });
    renderApp('/tickets?statut=clos');
    await screen.findByRole('link', { name: 'Client 1 LYO-2026-0001' });
    const drawn = screen.getAllByRole('article').length;
    expect(drawn).toBeLessThan(20);
    expect(api.calls('GET /api/tickets/clos')).toHaveLength(1);

    // To the end of the list, then to the end of the longer list.
    scrollTo(100_000);
    await waitFor(() => expect(api.calls('GET /api/tickets/clos')).toHaveLength(2));
    scrollTo(200_000);
    expect(await screen.findByRole('link', { name: 'Client 70 LYO-2026-0070' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Client 1 LYO-2026-0001' })).toBeNull();
    expect(api.calls('GET /api/tickets/clos').map((call) => call.query.get('cursor'))).toEqual([null, 'c60']);
    expect(screen.getByText('70 tickets')).toBeTruthy();
  });

  it("counts the chips with the server's figures and asks the server for the chip's tickets", async () => {
    signIn();
    const api = mockApi({
      'GET /api/tickets': (request: { query: URLSearchParams }) => ({
        ...pagedTickets([urgent, opened, inIntervention])(request),
        counts: request.query.has('cursor') ? null : { tout: 1204, urgents: 17, ouverts: 800, en_cours: 300, interventions: 104 },
      }),
    });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    const chip = (name: string) => screen.getByRole('button', { name: new RegExp(`^${name}`) });
    expect(chip('Tout').textContent).toMatch(/^Tout1\s204$/);
    expect(chip('Urgents').textContent).toBe('Urgents17');

    await app.user.click(chip('En cours'));
    await waitFor(() => expect(cards()).toEqual(['Clinique Sud LYO-2026-0003']));
    const last = api.calls('GET /api/tickets').at(-1)!.query;
    expect(last.get('statut')).toBe('en_cours');
    expect(last.has('urgent')).toBe(false);
  });

  it('goes on loading pages while the quick search finds nothing in those loaded', async () => {
    signIn();
    layOut(200);
    const tickets = many(130, 'ouvert');
    const api = mockApi({ 'GET /api/tickets': pagedTickets(tickets) });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    await app.user.type(screen.getByRole('searchbox', { name: 'Rechercher un ticket' }), 'LYO-2026-0125');
    await waitFor(() => expect(cards()).toEqual(['Client 125 LYO-2026-0125']));
    expect(api.calls('GET /api/tickets').map((call) => call.query.get('cursor'))).toEqual([null, 'c60', 'c120']);
  });
});

describe('ticket list, closed view', () => {
  const closedUrgent = makeTicket({
    id: IDS.ticket,
    num_chrono: 'LYO-2026-0009',
    statut: 'clos',
    urgent: true,
    echeance: '2026-03-10T12:00:00.000Z',
    clos_at: '2026-03-10T13:30:00.000Z',
    devis: 1,
    numero_devis: null,
    date_devis: '2026-03-10T13:30:00.000Z',
  });
  const closedOnTime = makeTicket({ id: IDS.ticket2, num_chrono: 'LYO-2026-0010', statut: 'clos', created_at: '2026-03-09T08:00:00.000Z', clos_at: '2026-03-10T10:00:00.000Z', devis: 1, numero_devis: 'D-12' });

  const lookups = {
    'GET /api/clients': [
      { id: IDS.client, nom: 'Hôpital Nord', ville: 'Lyon' },
      { id: IDS.client2, nom: 'Clinique Sud', ville: 'Vienne' },
    ],
    'GET /api/clients/:id/sites': [
      makeSite({ id: IDS.site, nom: 'Bâtiment A', ville: 'Lyon', installations: [makeInstallation({ id: IDS.installation, nom: 'SSI catégorie A', site_id: IDS.site })] }),
      makeSite({ id: IDS.site2, nom: 'Bâtiment B', ville: 'Lyon', installations: [makeInstallation({ id: IDS.installation2, nom: 'Désenfumage', site_id: IDS.site2 })] }),
    ],
    'GET /api/utilisateurs': [{ id: IDS.technicien, prenom: 'Lucie', nom: 'Petit', role: 'technicien' }],
    'GET /api/metiers': [makeMetier({ id: IDS.metier, nom: 'Sécurité incendie' })],
  };

  it("shows 'Tickets Clos' and asks for the last 30 days by default", async () => {
    signIn();
    const api = mockApi({ 'GET /api/tickets/clos': pagedTickets([closedUrgent, closedOnTime]) });
    renderApp('/tickets?statut=clos');
    expect(screen.getByRole('heading', { level: 1, name: 'Tickets Clos' })).toBeTruthy();
    await screen.findAllByRole('article');
    const range = defaultClosedTicketsRange(new Date());
    const query = api.calls('GET /api/tickets/clos')[0]!.query;
    expect(query.get('date_debut')).toBe(range.date_debut);
    expect(query.get('date_fin')).toBe(range.date_fin);
    expect(query.has('devis_attente')).toBe(false);
  });

  it("flags a closed urgent ticket 'Fermé en urgence' with its overrun, and a pending quote", async () => {
    signIn();
    mockApi({ 'GET /api/tickets/clos': pagedTickets([closedUrgent, closedOnTime]) });
    renderApp('/tickets?statut=clos');
    const [late, onTime] = (await screen.findAllByRole('article')).map((c) => within(c));
    expect(late!.getByRole('img', { name: 'Fermé en urgence' })).toBeTruthy();
    expect(late!.getByText(/Fermé en urgence · dépassement 1,5 h/)).toBeTruthy();
    expect(late!.getByRole('img', { name: 'Devis non validé' })).toBeTruthy();
    expect(onTime!.queryByRole('img', { name: 'Fermé en urgence' })).toBeNull();
    // A validated quote is not "non validé".
    expect(onTime!.queryByRole('img', { name: 'Devis non validé' })).toBeNull();
    expect(onTime!.getByText('Clos')).toBeTruthy();
  });

  it("shows 'Aucun ticket clos.' when the search finds nothing", async () => {
    signIn();
    mockApi({ 'GET /api/tickets/clos': pagedTickets([]) });
    renderApp('/tickets?statut=clos');
    expect(await screen.findByText('Aucun ticket clos.')).toBeTruthy();
  });

  it('toggles between the open and the closed view', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([]), 'GET /api/tickets/clos': pagedTickets([]) });
    const app = renderApp('/tickets');
    await app.user.click(screen.getByRole('button', { name: 'Voir les tickets clos' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Tickets Clos' })).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Voir les tickets en cours' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Tickets Ouverts' })).toBeTruthy();
  });

  it('searches clients case-insensitively, says when none matches, and closes 150 ms after blur', async () => {
    signIn();
    mockApi({ 'GET /api/tickets/clos': pagedTickets([]), ...lookups });
    const app = renderApp('/tickets?statut=clos');
    await app.user.click(screen.getByRole('button', { name: 'Filtres' }));
    const search = screen.getByRole('combobox', { name: 'Client' });

    await app.user.type(search, 'NORD');
    const list = await screen.findByRole('listbox', { name: 'Client' });
    expect(within(list).getAllByRole('option').map((o) => o.textContent)).toEqual(['Hôpital NordLyon']);

    await app.user.clear(search);
    await app.user.type(search, 'zzz');
    expect(within(screen.getByRole('listbox', { name: 'Client' })).getByText('Aucun client trouvé')).toBeTruthy();

    await app.user.click(screen.getByRole('heading', { level: 1 }));
    // Still there right after the blur, gone a moment later.
    expect(screen.getByRole('listbox', { name: 'Client' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('listbox', { name: 'Client' })).toBeNull());
  });

  it('filters by client, site and installation, a parent change emptying its children, and resets', async () => {
    signIn();
    const unfiltered = pagedTickets([closedOnTime]);
    const api = mockApi({
      'GET /api/tickets/clos': (request: { query: URLSearchParams }) => (request.query.has('client_id') ? pagedTickets([])(request) : unfiltered(request)),
      ...lookups,
    });
    const app = renderApp('/tickets?statut=clos');
    await app.user.click(screen.getByRole('button', { name: 'Filtres' }));
    const site = screen.getByRole('combobox', { name: 'Site' }) as HTMLSelectElement;
    const installation = screen.getByRole('combobox', { name: 'Installation' }) as HTMLSelectElement;
    expect(site.disabled).toBe(true);
    expect(installation.disabled).toBe(true);

    await app.user.type(screen.getByRole('combobox', { name: 'Client' }), 'hôp');
    await app.user.click(await screen.findByRole('option', { name: /Hôpital Nord/ }));
    await waitFor(() => expect(site.disabled).toBe(false));
    await screen.findByRole('option', { name: 'Bâtiment B (Lyon)' });
    await app.user.selectOptions(site, IDS.site2);
    expect(installation.disabled).toBe(false);
    await app.user.selectOptions(installation, IDS.installation2);
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Technicien' }), IDS.technicien);
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Métier' }), IDS.metier);

    await waitFor(() => {
      const last = api.calls('GET /api/tickets/clos').at(-1)!.query;
      expect(Object.fromEntries(last)).toMatchObject({
        client_id: IDS.client,
        site_id: IDS.site2,
        installation_id: IDS.installation2,
        technicien_id: IDS.technicien,
        metier_id: IDS.metier,
      });
    });

    // Another site empties the installation.
    await app.user.selectOptions(site, IDS.site);
    expect(installation.value).toBe('');

    await app.user.click(screen.getByRole('button', { name: 'Réinitialiser les filtres' }));
    expect((screen.getByRole('combobox', { name: 'Client' }) as HTMLInputElement).value).toBe('');
    expect(site.value).toBe('');
    // Back to the unfiltered search (its pages are still in cache, kept current by live updates).
    expect(await screen.findByRole('link', { name: /LYO-2026-0010/ })).toBeTruthy();
    expect([...api.calls('GET /api/tickets/clos')[0]!.query.keys()].sort()).toEqual(['date_debut', 'date_fin', 'limit']);
  });

  it("asks only for pending quotes with 'Voir uniquement les tickets clos avec devis non validé'", async () => {
    signIn();
    const api = mockApi({ 'GET /api/tickets/clos': pagedTickets([]), ...lookups });
    const app = renderApp('/tickets?statut=clos');
    await app.user.click(screen.getByRole('button', { name: 'Filtres' }));
    await app.user.click(screen.getByRole('checkbox', { name: 'Voir uniquement les tickets clos avec devis non validé' }));
    await waitFor(() => expect(api.calls('GET /api/tickets/clos').at(-1)!.query.get('devis_attente')).toBe('1'));
    expect(app.router.state.location.search).toBe('?statut=clos&devis_attente=1');
  });

  it('arrives from the home tile with the quote filter set and the panel open', async () => {
    signIn();
    const api = mockApi({ 'GET /api/tickets/clos': pagedTickets([]), ...lookups });
    renderApp('/tickets?statut=clos&devis_attente=1');
    const box = screen.getByRole('checkbox', { name: 'Voir uniquement les tickets clos avec devis non validé' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await waitFor(() => expect(api.calls('GET /api/tickets/clos')[0]!.query.get('devis_attente')).toBe('1'));
  });

  it('falls back to empty look-up lists when they fail to load', async () => {
    signIn();
    mockApi({ 'GET /api/tickets/clos': pagedTickets([]), 'GET /api/utilisateurs': jsonResponse(500, {}) });
    const app = renderApp('/tickets?statut=clos');
    await app.user.click(screen.getByRole('button', { name: 'Filtres' }));
    const technicien = screen.getByRole('combobox', { name: 'Technicien' });
    await waitFor(() => expect(within(technicien).getAllByRole('option').map((o) => o.textContent)).toEqual(['Tous les techniciens']));
  });
});

describe('quote validation from the list', () => {
  const pending = makeTicket({ statut: 'clos', clos_at: '2026-03-10T10:00:00.000Z', devis: 1, date_devis: '2026-03-10T10:00:00.000Z' });

  it('is offered only with tickets.devis', async () => {
    signIn(makeUser({ permissions: [] }));
    mockApi({ 'GET /api/tickets/clos': pagedTickets([pending]) });
    renderApp('/tickets?statut=clos');
    await screen.findAllByRole('article');
    expect(screen.queryByRole('button', { name: 'Valider le devis' })).toBeNull();
  });

  it("requires the number ('Le numéro de devis est obligatoire.'), sends it and reloads the list", async () => {
    signIn(makeUser({ permissions: ['tickets.devis'] }));
    const api = mockApi({
      'GET /api/tickets/clos': pagedTickets([pending]),
      'PATCH /api/tickets/:id/update': { success: true },
    });
    const app = renderApp('/tickets?statut=clos');
    await app.user.click(await screen.findByRole('button', { name: 'Valider le devis' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Valider le devis' }));

    await app.user.click(dialog.getByRole('button', { name: 'Valider le devis' }));
    expect(dialog.getByRole('alert').textContent).toBe('Le numéro de devis est obligatoire.');
    expect(api.calls('PATCH /api/tickets/:id/update')).toHaveLength(0);

    await app.user.type(dialog.getByLabelText('Numéro de devis'), 'DV-2026-042');
    const dateField = dialog.getByLabelText('Date d’enregistrement du devis') as HTMLInputElement;
    await app.user.clear(dateField);
    await app.user.type(dateField, '2026-03-12');
    await app.user.click(dialog.getByRole('button', { name: 'Valider le devis' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const call = api.calls('PATCH /api/tickets/:id/update')[0]!;
    expect(call.path).toBe(`/api/tickets/${IDS.ticket}/update`);
    expect(sentBody(call)).toEqual({ numero_devis: 'DV-2026-042', date_enregistrement_devis: '2026-03-12' });
    await waitFor(() => expect(api.calls('GET /api/tickets/clos').length).toBeGreaterThan(1));
  });

  it.each([
    [jsonResponse(409, { error: 'Le devis de ce ticket est déjà validé.' }), 'Le devis de ce ticket est déjà validé.'],
    [jsonResponse(500, {}), 'Erreur lors de la validation du devis'],
  ])('shows the server error or the fallback', async (reply, text) => {
    signIn(makeUser({ permissions: ['tickets.devis'] }));
    mockApi({ 'GET /api/tickets/clos': pagedTickets([pending]), 'PATCH /api/tickets/:id/update': reply });
    const app = renderApp('/tickets?statut=clos');
    await app.user.click(await screen.findByRole('button', { name: 'Valider le devis' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Valider le devis' }));
    await app.user.type(dialog.getByLabelText('Numéro de devis'), 'DV-1');
    await app.user.click(dialog.getByRole('button', { name: 'Valider le devis' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(text);
  });
});
