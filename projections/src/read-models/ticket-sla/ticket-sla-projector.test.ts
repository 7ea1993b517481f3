import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  METIERS_STREAM_ID,
  defaultAgenceHoraires,
  devisOk,
  meanClosingTimeLabel,
  performanceIndicator,
  slaOk,
  ticketStreamId,
  type StatsTicketItem,
} from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { createReadModelHarness, type ReadModelHarness } from '../../test-support/read-model-harness.js';
import { ticketOpened, ticketVisit, type OpenOptions } from '../../test-support/ticket-events.js';
import { ticketsProjector } from '../tickets/tickets-projector.js';
import { ticketSlaProjector } from './ticket-sla-projector.js';
import { SLA_FIGURE_COLUMNS, type StoredSlaFigures, type TicketSlaRow } from './ticket-sla-reevaluation.js';
import { statsTicketPages } from './ticket-sla-export-queries.js';
import { homeSummaryStats } from './ticket-sla-home-summary.js';
import { statsTickets } from './ticket-sla-queries.js';
import type { StatsTicketsFilters } from './ticket-sla-selection.js';

const projectors: Projector[] = [ticketsProjector, ticketSlaProjector];

let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_ticket_sla', projectors);
});
afterAll(async () => h?.close());

// ─── Event builders ──────────────────────────────────────────────────────────

type Ev = { type: string; data: unknown };
const technicien = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };

function metierEvent(metierId: string, HO_stats: 0 | 1, type: 'MetierCreated' | 'MetierUpdated' = 'MetierCreated', nom = `Métier ${metierId.slice(0, 6)}`): Ev {
  const facts = { metierId, nom, ordre: null, delai_inter: 4, HO_stats };
  return type === 'MetierCreated' ? { type, data: { ...facts, createdAt: '2025-01-01T08:00:00.000Z' } } : { type, data: { ...facts, updatedAt: '2025-07-01T08:00:00.000Z' } };
}

async function createMetier(HO_stats: 0 | 1): Promise<string> {
  const id = randomUUID();
  await h.given(METIERS_STREAM_ID, [metierEvent(id, HO_stats)]);
  return id;
}

const opened = ticketOpened;

const taken: Ev = { type: 'TicketTakenInCharge', data: { technicien, takenAt: '2025-01-01T00:00:00.000Z' } };

const visit = (arriveAt: string, closedAt: string, devis: 0 | 1 = 0) => ticketVisit(technicien, arriveAt, closedAt, devis);

const closed = (arriveAt: string, closedAt: string, devis: 0 | 1 = 0): Ev => ({ type: 'TicketClosed', data: visit(arriveAt, closedAt, devis) });
const reintervention = (arriveAt: string, closedAt: string, devis: 0 | 1 = 0): Ev => ({
  type: 'ReinterventionRecorded',
  data: { ...visit(arriveAt, closedAt, devis), interventionId: randomUUID() },
});
const quoteValidated = (dateEnregistrementDevis: string): Ev => ({
  type: 'QuoteValidated',
  data: { numeroDevis: 'D-1', dateEnregistrementDevis, validatedAt: '2025-07-01T08:00:00.000Z' },
});

async function ticket(o: OpenOptions, ...more: Ev[]): Promise<string> {
  const id = randomUUID();
  await h.given(ticketStreamId(id), [opened(id, o), ...more]);
  return id;
}

async function slaRow(id: string): Promise<StoredSlaFigures> {
  const { rows } = await h.pool.query<StoredSlaFigures>(`SELECT ${SLA_FIGURE_COLUMNS.join(', ')} FROM rm.ticket_sla WHERE ticket_id = $1`, [id]);
  if (!rows[0]) throw new Error(`no SLA row for ${id}`);
  return rows[0];
}

const wide: Omit<StatsTicketsFilters, 'agence_id' | 'metier_id'> = { from: '2025-01-01', to: '2025-12-31' };
const later = new Date('2026-06-01T00:00:00.000Z');

async function itemOf(agenceId: string, id: string, now: Date = later): Promise<StatsTicketItem> {
  const { items } = await statsTickets(h.pool, [agenceId], wide, now);
  const item = items.find((candidate) => candidate.id === id);
  if (!item) throw new Error(`ticket ${id} not listed`);
  return item;
}

// ─── Known answers ───────────────────────────────────────────────────────────

describe('per-ticket figures under the trade clock (docs/sla.md examples)', () => {
  it('E8: the same visit is on time with HO_stats = 0 and late with HO_stats = 1', async () => {
    const agence = randomUUID();
    const workingDays = await createMetier(0);
    const calendar = await createMetier(1);
    // Friday 13 June 2025 21:00 Paris, 4 h; arrival Monday 16 June 00:30, closed 01:30.
    const events = [taken, closed('2025-06-15T22:30:00.000Z', '2025-06-15T23:30:00.000Z')];
    const onWorkingDays = await ticket({ agenceId: agence, metierId: workingDays, openedAt: '2025-06-13T19:00:00.000Z' }, ...events);
    const onCalendar = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-13T19:00:00.000Z' }, ...events);

    expect(await slaRow(onWorkingDays)).toEqual({
      calendar_time: false,
      sla_deadline: new Date('2025-06-15T23:00:00.000Z'), // Monday 01:00
      hours_to_arrival: 3.5,
      hours_to_closing: 4.5,
      sla_ok: true,
      devis_due_at: null,
      devis_ok: null,
    });
    expect(await slaRow(onCalendar)).toEqual({
      calendar_time: true,
      sla_deadline: new Date('2025-06-13T23:00:00.000Z'), // Saturday 01:00
      hours_to_arrival: 51.5,
      hours_to_closing: 52.5,
      sla_ok: false,
      devis_due_at: null,
      devis_ok: null,
    });
  });

  it('E6: a ticket spanning Christmas', async () => {
    const agence = randomUUID();
    const workingDays = await createMetier(0);
    const calendar = await createMetier(1);
    const events = [taken, closed('2025-12-29T09:00:00.000Z', '2025-12-29T10:00:00.000Z')];
    const a = await ticket({ agenceId: agence, metierId: workingDays, openedAt: '2025-12-24T15:00:00.000Z', delai: 48 }, ...events);
    const b = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-12-24T15:00:00.000Z', delai: 48 }, ...events);
    expect(await slaRow(a)).toMatchObject({ sla_deadline: new Date('2025-12-29T15:00:00.000Z'), hours_to_arrival: 42, sla_ok: true });
    expect(await slaRow(b)).toMatchObject({ sla_deadline: new Date('2025-12-26T15:00:00.000Z'), hours_to_arrival: 114, sla_ok: false });
  });

  it('counts the first arrival of any visit, and uses the default clock without a trade', async () => {
    const agence = randomUUID();
    const calendar = await createMetier(1);
    // Monday 16 June 2025 08:00 Paris, 4 h; a re-intervention arrives after 3 h, the closing visit the next day.
    const first = await ticket(
      { agenceId: agence, metierId: calendar, openedAt: '2025-06-16T06:00:00.000Z' },
      taken,
      reintervention('2025-06-16T09:00:00.000Z', '2025-06-16T10:00:00.000Z'),
      closed('2025-06-17T08:00:00.000Z', '2025-06-17T09:00:00.000Z'),
    );
    expect(await slaRow(first)).toMatchObject({ hours_to_arrival: 3, hours_to_closing: 27, sla_ok: true });
    expect((await itemOf(agence, first)).interventions_count).toBe(2);

    // No trade: HO_stats = 0, a new trade's default. Friday 21:00 + 4 h → Monday 01:00.
    const noTrade = await ticket({ agenceId: agence, metierId: null, openedAt: '2025-06-13T19:00:00.000Z' });
    expect(await slaRow(noTrade)).toMatchObject({ calendar_time: false, sla_deadline: new Date('2025-06-15T23:00:00.000Z'), sla_ok: null });
  });

  it('judges a ticket not reached yet against now: N/A before its deadline, Non after', async () => {
    const agence = randomUUID();
    const calendar = await createMetier(1);
    const open = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-10T08:00:00.000Z' }, taken);
    const noDelay = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-10T08:00:00.000Z', delai: null });
    expect(await slaRow(open)).toMatchObject({ sla_deadline: new Date('2025-06-10T12:00:00.000Z'), sla_ok: null, hours_to_arrival: null });
    expect((await itemOf(agence, open, new Date('2025-06-10T11:00:00.000Z'))).sla_ok).toBeNull();
    // The deadline instant itself is still on time.
    expect((await itemOf(agence, open, new Date('2025-06-10T12:00:00.000Z'))).sla_ok).toBeNull();
    expect((await itemOf(agence, open, new Date('2025-06-10T12:00:00.001Z'))).sla_ok).toBe(false);
    expect(await slaRow(noDelay)).toMatchObject({ sla_deadline: null, sla_ok: null });
    expect((await itemOf(agence, noDelay)).sla_ok).toBeNull();
  });
});

describe('quotes: registered within 5 days of the visit that asked for them', () => {
  // Closed Monday 2 June 2025 12:00 Paris with a quote: due Saturday 7 June 12:00.
  const closedAt = '2025-06-02T10:00:00.000Z';
  const due = new Date('2025-06-07T10:00:00.000Z');

  it('gives Oui inside the window (bound included), Non after it, N/A without a quote', async () => {
    const agence = randomUUID();
    const metier = await createMetier(1);
    const base = { agenceId: agence, metierId: metier, openedAt: '2025-06-02T07:00:00.000Z' };
    const visitWithQuote = [taken, closed('2025-06-02T08:00:00.000Z', closedAt, 1)];
    const dayInside = await ticket(base, ...visitWithQuote, quoteValidated('2025-06-06'));
    const atBound = await ticket(base, ...visitWithQuote, quoteValidated('2025-06-07T10:00:00.000Z'));
    const justLate = await ticket(base, ...visitWithQuote, quoteValidated('2025-06-07T10:00:00.001Z'));
    const pending = await ticket(base, ...visitWithQuote);
    const noQuote = await ticket(base, taken, closed('2025-06-02T08:00:00.000Z', closedAt, 0));

    expect(await slaRow(dayInside)).toMatchObject({ devis_due_at: due, devis_ok: true });
    expect(await slaRow(atBound)).toMatchObject({ devis_ok: true });
    expect(await slaRow(justLate)).toMatchObject({ devis_ok: false });
    expect(await slaRow(pending)).toMatchObject({ devis_due_at: due, devis_ok: null });
    expect(await slaRow(noQuote)).toMatchObject({ devis_due_at: null, devis_ok: null });

    expect((await itemOf(agence, pending, new Date('2025-06-07T10:00:00.000Z'))).devis_ok).toBeNull();
    expect((await itemOf(agence, pending, new Date('2025-06-07T10:00:00.001Z'))).devis_ok).toBe(false);
    expect((await itemOf(agence, noQuote)).devis_ok).toBeNull();
  });

  it('starts the window at the re-intervention that asked for the quote, as the ticket screen countdown does', async () => {
    const agence = randomUUID();
    const metier = await createMetier(1);
    const id = await ticket(
      { agenceId: agence, metierId: metier, openedAt: '2025-06-01T07:00:00.000Z' },
      taken,
      reintervention('2025-06-01T08:00:00.000Z', '2025-06-01T10:00:00.000Z', 1),
      closed('2025-06-05T08:00:00.000Z', '2025-06-05T10:00:00.000Z', 0),
      // Within 5 days of closing, but 5 days and 2 hours after the quote was asked for.
      quoteValidated('2025-06-06T12:00:00.000Z'),
    );
    expect(await slaRow(id)).toMatchObject({ devis_due_at: new Date('2025-06-06T10:00:00.000Z'), devis_ok: false });
  });
});

describe('re-evaluation', () => {
  it('re-evaluates the trade’s tickets when its HO_stats flips, and only then', async () => {
    const agence = randomUUID();
    const metier = await createMetier(0);
    const other = await createMetier(0);
    const events = [taken, closed('2025-06-15T22:30:00.000Z', '2025-06-15T23:30:00.000Z')];
    const mine = await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-06-13T19:00:00.000Z' }, ...events);
    const theirs = await ticket({ agenceId: agence, metierId: other, openedAt: '2025-06-13T19:00:00.000Z' }, ...events);
    const before = await slaRow(mine);
    expect(before).toMatchObject({ calendar_time: false, sla_ok: true, hours_to_arrival: 3.5 });
    const item = await itemOf(agence, mine);
    expect(item.sla_ok).toBe(true);

    await h.given(METIERS_STREAM_ID, [metierEvent(metier, 1, 'MetierUpdated')]);
    expect(await slaRow(mine)).toMatchObject({
      calendar_time: true,
      sla_deadline: new Date('2025-06-13T23:00:00.000Z'),
      hours_to_arrival: 51.5,
      hours_to_closing: 52.5,
      sla_ok: false,
    });
    expect((await itemOf(agence, mine)).sla_ok).toBe(false);
    expect(await slaRow(theirs)).toEqual(before);

    // A rename keeps the clock; flipping back restores the first answer.
    await h.given(METIERS_STREAM_ID, [metierEvent(metier, 1, 'MetierUpdated', 'Renommé')]);
    expect(await slaRow(mine)).toMatchObject({ calendar_time: true, sla_ok: false });
    await h.given(METIERS_STREAM_ID, [metierEvent(metier, 0, 'MetierUpdated')]);
    expect(await slaRow(mine)).toEqual(before);
  });

  it('re-evaluates an agency’s tickets when its opening hours change, which leaves whole-day figures as they are', async () => {
    const agence = randomUUID();
    const metier = await createMetier(0);
    await h.given(`agence-${agence}`, [{ type: 'AgenceHorairesSet', data: { agenceId: agence, horaires: defaultAgenceHoraires(), updatedAt: '2025-01-01T08:00:00.000Z' } }]);
    const id = await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-06-13T19:00:00.000Z' }, taken, closed('2025-06-15T22:30:00.000Z', '2025-06-15T23:30:00.000Z'));
    const before = await slaRow(id);
    const shorter = defaultAgenceHoraires().map((day) => ({ ...day, afternoon_open: null, afternoon_close: null }));
    await h.given(`agence-${agence}`, [{ type: 'AgenceHorairesSet', data: { agenceId: agence, horaires: shorter, updatedAt: '2025-07-01T08:00:00.000Z' } }]);
    expect(await slaRow(id)).toEqual(before);
    const { rows } = await h.pool.query('SELECT horaires FROM rm.ticket_sla_agences WHERE id = $1', [agence]);
    expect(rows[0]?.horaires).toEqual(shorter);
  });
});

// ─── Queries ─────────────────────────────────────────────────────────────────

describe('statsTickets', () => {
  it('answers a seeded set with known flags and summary', async () => {
    const agence = randomUUID();
    const working = await createMetier(0);
    const calendar = await createMetier(1);
    const fri21 = '2025-06-13T19:00:00.000Z';
    const arrivalMon0030 = closed('2025-06-15T22:30:00.000Z', '2025-06-15T23:30:00.000Z', 1);
    // 1: on time (working days), quote registered in time.
    const t1 = await ticket({ agenceId: agence, metierId: working, openedAt: fri21 }, taken, arrivalMon0030, quoteValidated('2025-06-18'));
    // 2: late (calendar), quote registered late.
    const t2 = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-13T19:00:00.500Z' }, taken, arrivalMon0030, quoteValidated('2025-06-25'));
    // 3: late (calendar), quote never registered: Non once the 5 days have passed.
    const t3 = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-13T19:00:01.000Z' }, taken, arrivalMon0030);
    // 4: still open, deadline passed: Non; no quote: N/A.
    const t4 = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-20T08:00:00.000Z' });
    // 5: no delay: N/A / N/A.
    const t5 = await ticket({ agenceId: agence, metierId: calendar, openedAt: '2025-06-21T08:00:00.000Z', delai: null });

    const { summary, items } = await statsTickets(h.pool, [agence], { from: '2025-06-01', to: '2025-06-30' }, later);
    expect(items.map((item) => [item.id, item.sla_ok, item.devis_ok])).toEqual([
      [t5, null, null],
      [t4, false, null],
      [t3, false, false],
      [t2, false, false],
      [t1, true, true],
    ]);
    expect(summary).toEqual({ sla_pct: 25, sla_ok: 1, total: 4, devis_pct: 33.3, devis_ok: 1, devis_eligible: 3 });
    expect(items[4]).toEqual({
      id: t1,
      num_chrono: `LYO-2025-${t1.slice(0, 5)}`,
      client_nom: 'Hôpital Nord',
      site_nom: 'Bâtiment A',
      installation_nom: 'SSI cat. A',
      technicien_prenom: 'Léa',
      technicien_nom: 'Martin',
      created_at: fri21,
      clos_at: '2025-06-15T23:30:00.000Z',
      sla_ok: true,
      devis_ok: true,
      interventions_count: 1,
    });

    // Filters: métier, agency (inside the scope), and an empty set.
    expect((await statsTickets(h.pool, [agence], { from: '2025-06-01', to: '2025-06-30', metier_id: working }, later)).items.map((i) => i.id)).toEqual([t1]);
    expect((await statsTickets(h.pool, 'all', { from: '2025-06-01', to: '2025-06-30', agence_id: agence }, later)).items).toHaveLength(5);
    expect(await statsTickets(h.pool, [randomUUID()], { from: '2025-06-01', to: '2025-06-30', agence_id: agence }, later)).toEqual({
      summary: { sla_pct: null, sla_ok: 0, total: 0, devis_pct: null, devis_ok: 0, devis_eligible: 0 },
      items: [],
    });
    expect((await statsTickets(h.pool, [], wide, later)).items).toEqual([]);
  });

  it('agrees with slaOk / devisOk on every row, whatever now', async () => {
    const { rows } = await h.pool.query<TicketSlaRow>('SELECT * FROM rm.ticket_sla');
    expect(rows.length).toBeGreaterThan(20);
    for (const now of [new Date('2025-06-10T11:00:00.000Z'), new Date('2025-06-17T00:00:00.000Z'), later]) {
      const { items } = await statsTickets(h.pool, 'all', wide, now);
      const byId = new Map(items.map((item) => [item.id, item]));
      for (const row of rows) {
        const item = byId.get(row.ticket_id);
        expect(item, row.ticket_id).toBeDefined();
        expect(item?.sla_ok).toBe(
          slaOk({ createdAt: row.created_at, arriveAt: row.first_arrive_at, closAt: row.clos_at, delaiHours: row.delai, calendarTime: row.calendar_time, now }),
        );
        expect(item?.devis_ok).toBe(devisOk({ devis: row.devis === 1 ? 1 : 0, closAt: row.date_devis, devisRegisteredAt: row.devis_registered_at, now }));
      }
    }
  });

  it('takes whole Paris days at both ends of the window', async () => {
    const agence = randomUUID();
    const metier = await createMetier(1);
    // 22:30 UTC on 31 May is 00:30 on 1 June in Paris (UTC+2); 21:59 UTC is 23:59 on 31 May.
    const june1 = await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-05-31T22:30:00.000Z' });
    const may31 = await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-05-31T21:59:00.000Z' });
    const june30 = await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-06-30T21:59:59.999Z' });
    const july1 = await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-06-30T22:00:00.000Z' });
    const ids = async (from: string, to: string) => (await statsTickets(h.pool, [agence], { from, to }, later)).items.map((i) => i.id);
    expect(await ids('2025-06-01', '2025-06-30')).toEqual([june30, june1]);
    expect(await ids('2025-05-31', '2025-05-31')).toEqual([may31]);
    expect(await ids('2025-07-01', '2025-07-01')).toEqual([july1]);
  });

  it('pages the same rows in the same order, ties on created_at included', async () => {
    const agence = randomUUID();
    const metier = await createMetier(0);
    for (let i = 0; i < 5; i++) await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-03-03T09:00:00.000Z' });
    for (let i = 0; i < 2; i++) await ticket({ agenceId: agence, metierId: metier, openedAt: `2025-03-0${4 + i}T09:00:00.123Z` });
    const all = (await statsTickets(h.pool, [agence], wide, later)).items;
    expect(all).toHaveLength(7);
    for (const pageSize of [1, 2, 3, 7, 1000]) {
      const pages: StatsTicketItem[][] = [];
      for await (const page of statsTicketPages(h.pool, [agence], wide, later, pageSize)) pages.push(page);
      expect(pages.every((page) => page.length > 0 && page.length <= pageSize)).toBe(true);
      expect(pages.flat()).toEqual(all);
    }
    const none: StatsTicketItem[][] = [];
    for await (const page of statsTicketPages(h.pool, [], wide, later)) none.push(page);
    expect(none).toEqual([]);
  });
});

describe('homeSummaryStats', () => {
  it('counts the window on created_at and clos_at, the mean closing time and the performance indicator', async () => {
    const agence = randomUUID();
    const metier = await createMetier(1);
    const window = { from: '2025-09-01', to: '2025-09-30' };
    // Closed in the window after 72 h and 10 h (both past their 4 h echeance) and after 2 h (on time).
    await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-09-02T08:00:00.000Z' }, taken, closed('2025-09-05T07:00:00.000Z', '2025-09-05T08:00:00.000Z'));
    await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-09-03T08:00:00.000Z' }, taken, closed('2025-09-03T17:00:00.000Z', '2025-09-03T18:00:00.000Z'));
    await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-09-04T08:00:00.000Z' }, taken, closed('2025-09-04T09:00:00.000Z', '2025-09-04T10:00:00.000Z'));
    // Opened before the window, closed inside it after 24 h with no echeance.
    await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-08-31T20:00:00.000Z', delai: null }, taken, closed('2025-09-01T19:00:00.000Z', '2025-09-01T20:00:00.000Z'));
    // Opened inside, still open; opened inside, closed after the window.
    await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-09-10T08:00:00.000Z' });
    await ticket({ agenceId: agence, metierId: metier, openedAt: '2025-09-30T08:00:00.000Z' }, taken, closed('2025-10-01T07:00:00.000Z', '2025-10-01T08:00:00.000Z'));

    const stats = await homeSummaryStats(h.pool, [agence], window);
    // Means: (72 + 10 + 2 + 24) / 4 = 27 h.
    expect(stats).toEqual({
      from: '2025-09-01',
      to: '2025-09-30',
      created: 5,
      closed: 4,
      mean_closing_ms: 27 * 3_600_000,
      mean_closing_time: '1j 3h',
      performance: { pct: 33.3, count: 1, total: 3 },
    });

    // The same figures as the calendar helpers on the closed-in-window rows.
    const { rows } = await h.pool.query<{ created_at: Date; clos_at: Date; echeance: Date | null }>(
      `SELECT created_at, clos_at, echeance FROM rm.ticket_sla WHERE agence_id = $1 AND clos_at >= '2025-08-31T22:00:00Z' AND clos_at < '2025-09-30T22:00:00Z'`,
      [agence],
    );
    const items = rows.map((row) => ({ createdAt: row.created_at, closAt: row.clos_at, echeance: row.echeance }));
    expect(stats.mean_closing_time).toBe(meanClosingTimeLabel(items));
    expect(stats.performance).toEqual(performanceIndicator(items));

    expect(await homeSummaryStats(h.pool, [randomUUID()], window)).toEqual({
      from: '2025-09-01',
      to: '2025-09-30',
      created: 0,
      closed: 0,
      mean_closing_ms: null,
      mean_closing_time: '—',
      performance: { pct: null, count: 0, total: 0 },
    });
    expect((await homeSummaryStats(h.pool, 'all', window)).closed).toBeGreaterThanOrEqual(4);
  });
});

// ─── Idempotence ─────────────────────────────────────────────────────────────

describe('idempotence', () => {
  const snapshot = async () => ({
    sla: (await h.pool.query('SELECT * FROM rm.ticket_sla ORDER BY ticket_id')).rows,
    metiers: (await h.pool.query('SELECT * FROM rm.ticket_sla_metiers ORDER BY id')).rows,
    agences: (await h.pool.query('SELECT * FROM rm.ticket_sla_agences ORDER BY id')).rows,
    days: (await h.pool.query('SELECT * FROM rm.ticket_sla_days ORDER BY agence_id, metier_id, day')).rows,
  });

  it('changes nothing when every event is delivered again, newest first, in one batch or one at a time', async () => {
    const before = await snapshot();
    const streams = [METIERS_STREAM_ID, ...before.sla.map((row: { ticket_id: string }) => ticketStreamId(row.ticket_id)), ...before.agences.map((row: { id: string }) => `agence-${row.id}`)];
    await h.redeliver(streams);
    expect(await snapshot()).toEqual(before);
  });

  it('gives the same rows after a rebuild, HO_stats flips included', async () => {
    const before = await snapshot();
    expect(before.sla.length).toBeGreaterThan(20);
    await h.rebuild();
    expect(await snapshot()).toEqual(before);
  });
  it('keeps each day’s counts equal to a count of its tickets, after HO_stats flips, redeliveries and a rebuild', async () => {
    const recount = await h.pool.query(
      `SELECT agence_id, metier_id, (created_at AT TIME ZONE 'Europe/Paris')::date::text AS day, count(*)::int AS tickets,
         count(*) FILTER (WHERE clos_at IS NOT NULL)::int AS closed, count(*) FILTER (WHERE sla_ok IS NOT NULL)::int AS judged,
         count(*) FILTER (WHERE sla_ok)::int AS ok, count(*) FILTER (WHERE devis_ok IS NOT NULL)::int AS devis_eligible,
         count(*) FILTER (WHERE devis_ok)::int AS devis_ok
       FROM rm.ticket_sla GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    const kept = await h.pool.query(
      `SELECT agence_id, metier_id, day::text AS day, tickets, closed, judged, ok, devis_eligible, devis_ok
       FROM rm.ticket_sla_days WHERE tickets > 0 ORDER BY 1, 2, 3`,
    );
    expect(recount.rows.length).toBeGreaterThan(5);
    expect(recount.rows.some((row: { judged: number; ok: number }) => row.judged > row.ok)).toBe(true);
    expect(kept.rows).toEqual(recount.rows);
  });
});
