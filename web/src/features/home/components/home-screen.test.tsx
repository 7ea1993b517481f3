import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeTicket, mockApi, renderApp, signIn, IDS } from '../../../testing/render-app';

afterEach(() => {
  vi.useRealTimers();
});

const summary = {
  counts: { clos: 41, urgent: 2, intervention: 3, ouvert: 7, en_cours: 5, devis_attente: 1, clos_devis_attente: 4 },
  stats: { created: 58, closed: 41, mean_closing_label: '1j 17h', performance: { pct: 87.5, count: 35, total: 40 } },
};

function tile(name: RegExp) {
  return screen.getByRole('link', { name });
}

describe("home 'Résumé des tickets'", () => {
  it('links every tile to the matching list with its count', async () => {
    signIn();
    mockApi({ 'GET /api/tickets/summary': summary });
    renderApp('/');
    expect(screen.getByRole('heading', { level: 1, name: 'Résumé des tickets' })).toBeTruthy();
    await screen.findByText('1j 17h');
    for (const section of ['Tickets clos', 'Tickets actifs', 'Devis en attente', 'Statistiques']) {
      expect(screen.getByRole('region', { name: section })).toBeTruthy();
    }
    const expected: [RegExp, string][] = [
      [/^41 Tickets clos/, '/tickets?statut=clos'],
      [/^2 Urgents/, '/tickets?urgent=1'],
      [/^3 Interventions/, '/tickets?statut=intervention'],
      [/^7 Ouverts/, '/tickets?statut=ouvert'],
      [/^5 En cours/, '/tickets?statut=en_cours'],
      [/^1 Tickets actifs/, '/tickets?devis_attente=1'],
      [/^4 Tickets clos/, '/tickets?statut=clos&devis_attente=1'],
    ];
    for (const [name, href] of expected) expect(tile(name).getAttribute('href')).toBe(href);
  });

  it('shows the 30-day statistics, the mean closing time and the performance', async () => {
    signIn();
    mockApi({ 'GET /api/tickets/summary': summary });
    renderApp('/');
    const stats = within(screen.getByRole('region', { name: 'Statistiques' }));
    expect(await stats.findByText('58')).toBeTruthy();
    expect(stats.getByText('30 derniers jours')).toBeTruthy();
    expect(stats.getByText('1j 17h')).toBeTruthy();
    expect(stats.getByText('87,5 % · 35 sur 40 clos dans les délais')).toBeTruthy();
  });

  it('opens the list from a tile', async () => {
    signIn();
    mockApi({ 'GET /api/tickets/summary': summary, 'GET /api/tickets': [] });
    const app = renderApp('/');
    await app.user.click(await screen.findByRole('link', { name: /^2 Urgents/ }));
    expect(app.router.state.location.search).toBe('?urgent=1');
    expect(screen.getByRole('button', { name: /^Urgents/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('derives the same figures from the lists while the server has no summary route', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-20T12:00:00.000Z'));
    signIn();
    const api = mockApi({
      'GET /api/tickets/summary': jsonResponse(404, { error: 'Not found' }),
      'GET /api/tickets': [
        makeTicket({ id: IDS.ticket, urgent: true, statut: 'en_cours', created_at: '2026-03-19T08:00:00.000Z' }),
        makeTicket({ id: IDS.ticket2, statut: 'ouvert', devis: 1, created_at: '2026-01-02T08:00:00.000Z' }),
      ],
      'GET /api/tickets/clos': [
        // 72 h and 10 h: mean 41 h → 1j 17h; one of the two on time.
        makeTicket({ id: IDS.ticket3, statut: 'clos', created_at: '2026-03-10T08:00:00.000Z', clos_at: '2026-03-13T08:00:00.000Z', echeance: '2026-03-10T12:00:00.000Z', devis: 1 }),
        makeTicket({ id: '11111111-1111-4111-8111-111111111119', statut: 'clos', created_at: '2026-03-15T08:00:00.000Z', clos_at: '2026-03-15T18:00:00.000Z', echeance: '2026-03-16T08:00:00.000Z' }),
      ],
    });
    renderApp('/');
    const stats = within(screen.getByRole('region', { name: 'Statistiques' }));
    expect(await stats.findByText('1j 17h')).toBeTruthy();
    expect(stats.getByText('50 % · 1 sur 2 clos dans les délais')).toBeTruthy();
    expect(tile(/^2 Tickets clos/)).toBeTruthy();
    expect(tile(/^1 Urgents/)).toBeTruthy();
    expect(tile(/^1 Ouverts/)).toBeTruthy();
    expect(tile(/^1 Tickets actifs/)).toBeTruthy();
    expect(tile(/^1 Tickets clos/).getAttribute('href')).toBe('/tickets?statut=clos&devis_attente=1');
    const closedQuery = api.calls('GET /api/tickets/clos')[0]!.query;
    expect(closedQuery.get('date_debut')).toBe('2026-02-19');
    expect(closedQuery.get('date_fin')).toBe('2026-03-20');
  });

  it("shows an em dash for the mean when nothing was closed", async () => {
    signIn();
    mockApi({ 'GET /api/tickets/summary': jsonResponse(404, {}), 'GET /api/tickets': [], 'GET /api/tickets/clos': [] });
    renderApp('/');
    const stats = within(screen.getByRole('region', { name: 'Statistiques' }));
    expect(await stats.findByText('Aucun ticket clos avec échéance')).toBeTruthy();
    expect(stats.getAllByText('—').length).toBeGreaterThan(0);
  });
});

describe('the home performance says what it counts (issue 32, item 10)', () => {
  it('writes its basis under the figure: tickets closed in the last 30 days having an échéance, closed by it', async () => {
    signIn();
    mockApi({ 'GET /api/tickets/summary': summary });
    renderApp('/');
    const stats = within(screen.getByRole('region', { name: 'Statistiques' }));
    expect(await stats.findByText('87,5 % · 35 sur 40 clos dans les délais')).toBeTruthy();
    expect(stats.getByText(/^Tickets clos ces 30 derniers jours ayant une échéance : part des clôtures au plus tard à l’échéance\./)).toBeTruthy();
    // And that Statistiques' rate is another measure, so a different figure is not a contradiction.
    expect(stats.getByText(/Les Statistiques jugent autre chose : l’arrivée du technicien sur les tickets demandés/)).toBeTruthy();
  });
});
