import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeMetier } from '../../../testing/management';
import { IDS, makeTicket, mockApi, pagedTickets, renderApp, signIn } from '../../../testing/render-app';

/*
 * Issue 32, items 8 and 9 on the ticket list: late tickets say so on their
 * card and have their chip; the open board's search finds a technician and
 * offers a closed ticket; the closed search keeps its filters in the URL.
 */

const HOUR_MS = 3_600_000;
const CLOSED_ID = '11111111-1111-4111-8111-111111111114';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

const lateMost = makeTicket({
  id: IDS.ticket,
  num_chrono: 'LYO-2026-00011',
  statut: 'ouvert',
  client_nom: 'Musée des Confluences',
  created_at: ago(90 * HOUR_MS),
  // 2 j 5 h and a few minutes past the échéance.
  echeance: ago((2 * 24 + 5) * HOUR_MS + 10 * 60_000),
});
const lateLess = makeTicket({
  id: IDS.ticket2,
  num_chrono: 'LYO-2026-00012',
  statut: 'en_cours',
  client_nom: 'Lycée Ampère',
  created_at: ago(20 * HOUR_MS),
  echeance: ago(10 * HOUR_MS + 5 * 60_000),
  technicien_prenom: 'Hélène',
  technicien_nom: 'Dupré',
  id_technicien: IDS.technicien,
});
const onTime = makeTicket({
  id: IDS.ticket3,
  num_chrono: 'LYO-2026-00013',
  statut: 'ouvert',
  client_nom: 'Hôpital Nord',
  created_at: ago(HOUR_MS),
  echeance: new Date(Date.now() + 3 * HOUR_MS).toISOString(),
});

function cards() {
  return screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);
}

function cardOf(chrono: string) {
  return within(screen.getAllByRole('article').find((card) => within(card).getByRole('heading').textContent?.includes(chrono))!);
}

describe('late tickets stand out (issue 32, item 8)', () => {
  it('says on the card how late a ticket is, in words; an on-time card says nothing of it', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([onTime, lateMost, lateLess]) });
    renderApp('/tickets');
    await screen.findAllByRole('article');
    expect(cardOf('LYO-2026-00011').getByText('En retard de 2 j 5 h')).toBeTruthy();
    expect(cardOf('LYO-2026-00012').getByText('En retard de 10 h')).toBeTruthy();
    expect(cardOf('LYO-2026-00013').queryByText(/En retard/)).toBeNull();
  });

  it("has an « En retard » chip with the server's count, showing the late tickets most late first, kept in the URL", async () => {
    signIn();
    const api = mockApi({ 'GET /api/tickets': pagedTickets([onTime, lateLess, lateMost]) });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    expect(api.calls('GET /api/tickets')[0]!.query.get('avec_retard')).toBe('1');
    const chip = screen.getByRole('button', { name: /^En retard/ });
    expect(chip.textContent).toBe('En retard2');
    // Tout keeps the server's (spec) order; the late view asks the server for its own.
    expect(cards()).toEqual(['Hôpital Nord LYO-2026-00013', 'Lycée Ampère LYO-2026-00012', 'Musée des Confluences LYO-2026-00011']);

    await app.user.click(chip);
    await waitFor(() => expect(cards()).toEqual(['Musée des Confluences LYO-2026-00011', 'Lycée Ampère LYO-2026-00012']));
    expect(app.router.state.location.search).toBe('?en_retard=1');
    expect(api.calls('GET /api/tickets').at(-1)!.query.get('en_retard')).toBe('1');
    expect(chip.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/Les plus en retard d’abord/)).toBeTruthy();
  });
});

describe('a wider search (issue 32, item 9)', () => {
  it("finds a ticket by its technician's name, without accents or case", async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([onTime, lateMost, lateLess]) });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    const search = screen.getByRole('searchbox', { name: 'Rechercher un ticket' });
    await app.user.type(search, 'helene dupre');
    expect(cards()).toEqual(['Lycée Ampère LYO-2026-00012']);
    await app.user.clear(search);
    await app.user.type(search, 'DUPRÉ');
    expect(cards()).toEqual(['Lycée Ampère LYO-2026-00012']);
  });

  it('offers the closed ticket whose number was typed on the open board', async () => {
    signIn();
    const closed = makeTicket({ id: CLOSED_ID, num_chrono: 'LYO-2026-00042', statut: 'clos', clos_at: '2026-02-01T10:00:00.000Z' });
    const api = mockApi({
      'GET /api/tickets': pagedTickets([onTime]),
      'GET /api/tickets/clos': (request: { query: URLSearchParams }) =>
        request.query.get('q') === 'LYO-2026-00042' ? { tickets: [closed], next_cursor: null, total: 1 } : { tickets: [], next_cursor: null, total: 0 },
      'GET /api/tickets/:id': closed,
    });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    await app.user.type(screen.getByRole('searchbox', { name: 'Rechercher un ticket' }), 'LYO-2026-00042');
    expect(screen.getByText(/Aucun ticket ne correspond/)).toBeTruthy();
    const offer = await screen.findByText(/1 ticket clos correspond : N° LYO-2026-00042/);
    // The number's year is searched whole: the ticket may have been closed long ago.
    const query = api.calls('GET /api/tickets/clos').at(-1)!.query;
    expect([query.get('date_debut'), query.get('date_fin')]).toEqual(['2026-01-01', '2026-12-31']);
    await app.user.click(within(offer).getByRole('link', { name: 'Voir le ticket clos LYO-2026-00042' }));
    expect(app.pathname()).toBe(`/tickets/${CLOSED_ID}`);
  });

  it('says nothing more when no closed ticket matches either', async () => {
    signIn();
    mockApi({ 'GET /api/tickets': pagedTickets([onTime]), 'GET /api/tickets/clos': { tickets: [], next_cursor: null, total: 0 } });
    const app = renderApp('/tickets');
    await screen.findAllByRole('article');
    await app.user.type(screen.getByRole('searchbox', { name: 'Rechercher un ticket' }), 'zzz');
    expect(screen.getByText('Aucun ticket ne correspond à « zzz ».')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByText(/ticket clos correspond/)).toBeNull();
  });

  it('keeps the closed search in the URL: a shared link or a reload asks for the same search and shows it', async () => {
    signIn();
    const api = mockApi({
      'GET /api/tickets/clos': pagedTickets([]),
      'GET /api/utilisateurs': [{ id: IDS.technicien, prenom: 'Hélène', nom: 'Dupré', role: 'technicien' }],
      'GET /api/metiers': [makeMetier({ id: IDS.metier, nom: 'Sécurité incendie' })],
      'GET /api/clients': [],
    });
    const app = renderApp(`/tickets?statut=clos&date_debut=2026-01-01&date_fin=2026-02-28&technicien_id=${IDS.technicien}&q=dupre`);
    await waitFor(() => expect(api.calls('GET /api/tickets/clos')).toHaveLength(1));
    expect(Object.fromEntries(api.calls('GET /api/tickets/clos')[0]!.query)).toMatchObject({
      date_debut: '2026-01-01',
      date_fin: '2026-02-28',
      technicien_id: IDS.technicien,
      q: 'dupre',
    });
    // The panel opens on a link that carries filters, and shows them.
    expect((screen.getByLabelText('Demandé à partir du') as HTMLInputElement).value).toBe('2026-01-01');
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Technicien' }) as HTMLSelectElement).value).toBe(IDS.technicien));
    expect((screen.getByRole('searchbox', { name: 'Rechercher un ticket' }) as HTMLInputElement).value).toBe('dupre');

    // Another filter joins them in the URL.
    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Métier' }), IDS.metier);
    const url = new URLSearchParams(app.router.state.location.search);
    expect(Object.fromEntries(url)).toEqual({
      statut: 'clos',
      date_debut: '2026-01-01',
      date_fin: '2026-02-28',
      technicien_id: IDS.technicien,
      metier_id: IDS.metier,
      q: 'dupre',
    });
  });

  it('sends the closed search text to the server and writes it in the URL', async () => {
    signIn();
    const api = mockApi({ 'GET /api/tickets/clos': pagedTickets([]) });
    const app = renderApp('/tickets?statut=clos&devis_attente=1');
    await waitFor(() => expect(api.calls('GET /api/tickets/clos')).toHaveLength(1));
    await app.user.type(screen.getByRole('searchbox', { name: 'Rechercher un ticket' }), 'Hélène');
    expect(app.router.state.location.search).toBe('?statut=clos&devis_attente=1&q=H%C3%A9l%C3%A8ne');
    await waitFor(() => expect(api.calls('GET /api/tickets/clos').at(-1)!.query.get('q')).toBe('Hélène'));
    expect(api.calls('GET /api/tickets/clos').at(-1)!.query.get('devis_attente')).toBe('1');
  });
});
