import { defaultStatsWindow, type StatsTicketItem } from '@fsm/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAgence, makeMetier, MIDS } from '../../../testing/management';
import { sentBody } from '../../../testing/api-routes';
import { jsonResponse, makeUser, mockApi, renderApp, signIn } from '../../../testing/render-app';
import { renderScreen } from '../../../testing/render-screen';
import { StatsScreen } from './stats-screen';

function item(n: number, overrides: Partial<StatsTicketItem> = {}): StatsTicketItem {
  return {
    id: `11111111-1111-4111-8111-00000000000${n}`,
    num_chrono: `LYO-2026-000${n}`,
    client_nom: 'Hôpital Nord',
    site_nom: 'Bâtiment A',
    installation_nom: 'SSI catégorie A',
    technicien_prenom: 'Lucie',
    technicien_nom: 'Petit',
    created_at: '2026-03-10T08:00:00.000Z',
    clos_at: '2026-03-10T10:00:00.000Z',
    sla_ok: true,
    devis_ok: null,
    interventions_count: 1,
    ...overrides,
  };
}

/** One page (GET /api/stats/tickets?limit): the summary and weekly trend come from the server, over the whole window. */
const ANSWER = {
  summary: { sla_pct: 92.5, sla_ok: 37, total: 40, devis_pct: 80, devis_ok: 4, devis_eligible: 5 },
  weekly: [
    { week: '2026-03-02', label: 'Sem. du 02/03', judged: 0, ok: 0, pct: null },
    { week: '2026-03-09', label: 'Sem. du 09/03', judged: 2, ok: 1, pct: 50 },
  ],
  items: [item(1), item(2, { sla_ok: false, devis_ok: false, num_chrono: 'LYO-2026-0002', technicien_prenom: null, technicien_nom: null })],
  next_cursor: null,
  total: 2,
};

function api(overrides: Record<string, unknown> = {}) {
  return mockApi({
    'GET /api/stats/tickets': ANSWER,
    'GET /api/metiers': [makeMetier(), makeMetier({ id: MIDS.metier2, nom: 'Électricité', ordre: 2 })],
    'GET /api/agences': [makeAgence(), makeAgence({ id: MIDS.agence2, nom: 'Agence Grenoble' })],
    ...overrides,
  });
}

// The route loads the screen lazily; load it once up front so a busy test run does not time out.
beforeAll(async () => {
  await import('./stats-screen');
});

/** The lazy screen is there once its filters are. */
const ready = () => screen.findByRole('button', { name: 'Appliquer' }, { timeout: 5000 });

describe('Statistiques screen', () => {
  it('asks for the last 30 days by default, without the Agence filter for tickets.stats', async () => {
    signIn(makeUser({ role: 'technicien_plus', permissions: ['tickets.stats'] }));
    const mock = api();
    renderApp('/stats');
    await ready();
    await screen.findByRole('heading', { level: 1, name: 'Statistiques' });
    const window = defaultStatsWindow(new Date());
    expect((await screen.findByLabelText('Du') as HTMLInputElement).value).toBe(window.from);
    expect((screen.getByLabelText('Au') as HTMLInputElement).value).toBe(window.to);
    expect((screen.getByLabelText('Métier') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('Tous');
    expect(screen.queryByLabelText('Agence')).toBeNull();
    await waitFor(() => expect(mock.calls('GET /api/stats/tickets')).toHaveLength(1));
    const query = mock.calls('GET /api/stats/tickets')[0]?.query;
    expect(query?.get('from')).toBe(window.from);
    expect(query?.get('to')).toBe(window.to);
    expect(query?.has('metier_id')).toBe(false);
    expect(query?.has('agence_id')).toBe(false);
    expect(mock.calls('GET /api/agences')).toHaveLength(0);
  });

  it("offers 'Toutes' and the agencies with tickets.stats-global, and applies the filters", async () => {
    signIn(makeUser({ role: 'admin_plus', permissions: ['tickets.stats-global'] }));
    const mock = api();
    const app = renderApp('/stats');
    await ready();
    const agence = (await screen.findByLabelText('Agence')) as HTMLSelectElement;
    expect(agence.selectedOptions[0]?.textContent).toBe('Toutes');
    await app.user.selectOptions(agence, await screen.findByRole('option', { name: 'Agence Grenoble' }));
    await app.user.selectOptions(screen.getByLabelText('Métier'), await screen.findByRole('option', { name: 'Électricité' }));
    await app.user.clear(screen.getByLabelText('Du'));
    await app.user.type(screen.getByLabelText('Du'), '2026-03-01');
    await app.user.clear(screen.getByLabelText('Au'));
    await app.user.type(screen.getByLabelText('Au'), '2026-03-31');
    expect(mock.calls('GET /api/stats/tickets')).toHaveLength(1);
    await app.user.click(screen.getByRole('button', { name: 'Appliquer' }));
    await waitFor(() => expect(mock.calls('GET /api/stats/tickets')).toHaveLength(2));
    const query = mock.calls('GET /api/stats/tickets')[1]?.query;
    expect(Object.fromEntries(query ?? [])).toEqual({ from: '2026-03-01', to: '2026-03-31', metier_id: MIDS.metier2, agence_id: MIDS.agence2, limit: '100' });
  });

  it("shows the two gauges: green 'Atteint' at 90 % or more, red 'À améliorer' under 100 % for quotes", async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    api();
    renderApp('/stats');
    await ready();
    const sla = await screen.findByRole('meter', { name: "Respect du délai d'intervention" });
    expect(sla.getAttribute('aria-valuetext')).toBe('92,5\u202F% — Atteint');
    expect(sla.closest('article')?.className).toContain('stats-gauge--reached');
    // Each gauge is a region named by its title (aria-labelledby needs an id without spaces).
    expect(screen.getByRole('article', { name: "Respect du délai d'intervention" })).toBe(sla.closest('article'));
    const devis = screen.getByRole('meter', { name: 'Devis envoyés sous 5 jours' });
    expect(devis.getAttribute('aria-valuetext')).toBe('80\u202F% — À améliorer');
    expect(devis.closest('article')?.className).toContain('stats-gauge--missed');
    expect(within(devis.closest('article') as HTMLElement).getByText('4 / 5 devis dans les délais')).toBeTruthy();
  });

  it('lists the tickets, each row opening the ticket', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    api();
    const app = renderApp('/stats');
    await ready();
    const row = (await screen.findByRole('rowheader', { name: 'LYO-2026-0002' })).closest('tr') as HTMLElement;
    expect(within(row).getByLabelText("Délai d'intervention respecté : Non")).toBeTruthy();
    expect(within(row).getByText('10/03/2026 09:00')).toBeTruthy();
    await app.user.click(within(row).getByText('Hôpital Nord'));
    await waitFor(() => expect(app.pathname()).toBe(`/tickets/${item(2).id}`));
  });

  it('shows the weekly trend of the intervention delay', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    api();
    renderApp('/stats');
    await ready();
    expect(await screen.findByRole('heading', { name: "Respect du délai d'intervention par semaine" })).toBeTruthy();
    const table = screen.getByRole('table', { name: "Respect du délai d'intervention par semaine" });
    expect(within(table).getByRole('row', { name: /Sem. du 09\/03/ }).textContent).toContain('50\u202F%');
  });

  it("says 'Aucune donnée pour les filtres sélectionnés.' when nothing matches", async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    api({
      'GET /api/stats/tickets': {
        summary: { sla_pct: null, sla_ok: 0, total: 0, devis_pct: null, devis_ok: 0, devis_eligible: 0 },
        weekly: [],
        items: [],
        next_cursor: null,
        total: 0,
      },
    });
    renderApp('/stats');
    await ready();
    expect(await screen.findByText('Aucune donnée pour les filtres sélectionnés.')).toBeTruthy();
    expect(screen.getByRole('meter', { name: "Respect du délai d'intervention" }).getAttribute('aria-valuetext')).toBe('Aucune donnée');
  });

  it("shows the server's error, else 'Erreur API'", async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    let answer = jsonResponse(400, { error: 'La date de début doit précéder la date de fin.' });
    api({ 'GET /api/stats/tickets': () => answer });
    const app = renderApp('/stats');
    await ready();
    expect((await screen.findByRole('alert')).textContent).toBe('La date de début doit précéder la date de fin.');
    answer = jsonResponse(500, {});
    await app.user.clear(screen.getByLabelText('Du'));
    await app.user.type(screen.getByLabelText('Du'), '2026-01-01');
    await app.user.click(screen.getByRole('button', { name: 'Appliquer' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Erreur API'));
  });

  it('exports the CSV with the applied filters and the token', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    const mock = api({ 'GET /api/stats/tickets.csv': () => new Response('Ticket ID;N° Chrono\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } }) });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const app = renderApp('/stats');
    await ready();
    await screen.findByRole('rowheader', { name: 'LYO-2026-0001' });
    await app.user.click(screen.getByRole('button', { name: 'Exporter CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^stats_tickets_\d{4}-\d{2}-\d{2}\.csv$/);
    const call = mock.calls('GET /api/stats/tickets.csv')[0];
    expect(new Headers(call?.init.headers).get('Authorization')).toBe('Bearer test-token');
    expect(call?.query.get('from')).toBe(defaultStatsWindow(new Date()).from);
    // Exports stay whole: every row, whatever the table has loaded.
    expect(call?.query.has('limit')).toBe(false);
    expect(mock.calls('POST /api/exports')).toHaveLength(0);
  });

  it('shows the true total at once and loads the next page of the table with the cursor as it scrolls', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    const mock = api({
      'GET /api/stats/tickets': (request: { query: URLSearchParams }) =>
        request.query.get('cursor') === 'p2'
          ? { summary: null, weekly: null, items: [item(3, { num_chrono: 'LYO-2026-0003' })], next_cursor: null, total: 8273 }
          : { ...ANSWER, next_cursor: 'p2', total: 8273 },
    });
    renderApp('/stats');
    await ready();
    expect(await screen.findByText(/^8\s273 tickets$/)).toBeTruthy();
    // Two rows loaded, both on screen: the end of the table is in view, so the next page comes.
    expect(await screen.findByRole('rowheader', { name: 'LYO-2026-0003' })).toBeTruthy();
    expect(mock.calls('GET /api/stats/tickets').map((call) => call.query.get('cursor'))).toEqual([null, 'p2']);
    // The first page's summary stays.
    expect(screen.getByRole('meter', { name: "Respect du délai d'intervention" }).getAttribute('aria-valuetext')).toBe('92,5\u202F% — Atteint');
  });

  it("says 'Accès refusé.' without a statistics permission", async () => {
    signIn(makeUser({ role: 'admin', permissions: [] }));
    const mock = api();
    renderScreen(<StatsScreen />);
    expect(screen.getByRole('alert').textContent).toBe('Accès refusé.');
    expect(mock.calls('GET /api/stats/tickets')).toHaveLength(0);
  });
});

describe('each Statistiques rate says what it counts (issue 32, item 10)', () => {
  it('writes under the intervention-delay gauge which tickets it judges and on what, for the applied period', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    api();
    renderApp('/stats');
    await ready();
    const sla = within(await screen.findByRole('article', { name: "Respect du délai d'intervention" }));
    const window = defaultStatsWindow(new Date());
    const day = (iso: string) => iso.split('-').reverse().join('/');
    expect(sla.getByText(new RegExp(`^Tickets demandés du ${day(window.from)} au ${day(window.to)} : arrivée du technicien \\(ou clôture\\) dans le délai du ticket`))).toBeTruthy();
    expect(sla.getByText(/L’accueil compte autre chose : les tickets clos à l’échéance\./)).toBeTruthy();
    const devis = within(screen.getByRole('article', { name: 'Devis envoyés sous 5 jours' }));
    expect(devis.getByText(/enregistrés au plus tard 5 jours après la visite qui les a demandés/)).toBeTruthy();
  });
});

describe("'Exporter CSV' of many tickets goes through the workers (issue 28, item 2)", () => {
  const EXPORT_ID = '22222222-2222-4222-8222-000000000001';
  const exportStatus = (overrides: Record<string, unknown> = {}) => ({
    id: EXPORT_ID,
    kind: 'stats-tickets',
    status: 'pending',
    progress: 0,
    rows: 0,
    filename: 'stats_tickets_2026-03-31.csv',
    downloadUrl: null,
    error: null,
    ...overrides,
  });
  const csvAnswer = () => new Response('Ticket ID;N° Chrono\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });

  it('downloads at once up to 5,000 tickets', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    const mock = api({ 'GET /api/stats/tickets': { ...ANSWER, total: 5000 }, 'GET /api/stats/tickets.csv': csvAnswer });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const app = renderApp('/stats');
    await ready();
    await screen.findByText(/^5\s000 tickets$/);
    await app.user.click(screen.getByRole('button', { name: 'Exporter CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(mock.calls('GET /api/stats/tickets.csv')).toHaveLength(1);
    expect(mock.calls('POST /api/exports')).toHaveLength(0);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('above 5,000 tickets asks the workers for the file with the applied filters, shows its progress, then its download link', async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    // The worker is at 40 % until the test lets it finish.
    let current = exportStatus({ status: 'running', progress: 40, rows: 2400 });
    const mock = api({
      'GET /api/stats/tickets': { ...ANSWER, total: 5001 },
      'POST /api/exports': () => jsonResponse(202, exportStatus()),
      'GET /api/exports/:id': () => current,
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const app = renderApp('/stats');
    await ready();
    await screen.findByText(/^5\s001 tickets$/);
    await app.user.click(screen.getByRole('button', { name: 'Exporter CSV' }));

    const progress = await screen.findByRole('progressbar', { name: "Progression de l'export CSV" });
    await waitFor(() => expect(progress.getAttribute('value')).toBe('40'));
    expect(screen.getByText(/^Export en cours\s: 40\s% \(2\s400 lignes\)$/)).toBeTruthy();

    current = exportStatus({ status: 'done', progress: 100, rows: 5001, downloadUrl: `/api/exports/${EXPORT_ID}/download?token=dl-token` });

    const link = await screen.findByRole('link', { name: 'Télécharger stats_tickets_2026-03-31.csv' }, { timeout: 4000 });
    expect(link.getAttribute('href')).toBe(`/api/exports/${EXPORT_ID}/download?token=dl-token`);
    expect(link.getAttribute('download')).toBe('stats_tickets_2026-03-31.csv');
    expect(screen.queryByRole('progressbar')).toBeNull();

    expect(sentBody(mock.calls('POST /api/exports')[0])).toEqual({ kind: 'stats-tickets', filters: { from: defaultStatsWindow(new Date()).from, to: defaultStatsWindow(new Date()).to } });
    expect(mock.calls(`GET /api/exports/${EXPORT_ID}`).length).toBeGreaterThanOrEqual(2);
    // Nothing is fetched into the page: the browser takes the file from the link.
    expect(mock.calls('GET /api/stats/tickets.csv')).toHaveLength(0);
    expect(click).not.toHaveBeenCalled();
  }, 20_000);

  it("says in French when the export fails, and when it cannot be asked for", async () => {
    signIn(makeUser({ role: 'admin', permissions: ['tickets.stats'] }));
    let post = () => jsonResponse(202, exportStatus());
    api({
      'GET /api/stats/tickets': { ...ANSWER, total: 80_000 },
      'POST /api/exports': () => post(),
      'GET /api/exports/:id': exportStatus({ status: 'failed', error: "L'export a échoué." }),
    });
    const app = renderApp('/stats');
    await ready();
    await screen.findByText(/^80\s000 tickets$/);
    await app.user.click(screen.getByRole('button', { name: 'Exporter CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe("L'export a échoué.");

    post = () => jsonResponse(500, {});
    await app.user.click(screen.getByRole('button', { name: 'Exporter CSV' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe("Erreur lors de l'export CSV."));
  }, 20_000);
});
