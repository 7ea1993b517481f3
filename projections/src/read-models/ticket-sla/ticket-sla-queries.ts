import type pg from 'pg';
import {
  PARIS_TIME_ZONE,
  percentWithOneDecimal,
  statsWeekLabel,
  statsWeekMondays,
  summarizeStats,
  type StatsSummary,
  type StatsTicketItem,
  type StatsTicketsPage,
} from '@fsm/contracts';
import type { AgenceScope, Queryable } from '../queryable.js';
import { isoInstantSql } from '../tickets/ticket-answer-sql.js';
import { decodeCursor, listFingerprint, pageOf, type PageRequest } from '../keyset-cursor.js';
import { daySelection, statsTotal, UNSETTLED } from './ticket-sla-days.js';
import { snapshotPages, type SnapshotSelect } from '../snapshot-pages.js';
import { INTERVENTIONS_COUNT, STATS_FROM, STATS_ORDER, flagColumns, selectStatsRows, statsSelection, toItem, type StatsSelection, type StatsTicketsFilters } from './ticket-sla-selection.js';

export interface StatsTicketsAnswer {
  summary: StatsSummary;
  items: StatsTicketItem[];
}

// ─── The Statistiques answer, shaped by Postgres ─────────────────────────────
//
// A year of an agency is thousands of items (85,000 at 1M tickets): mapping
// each row with toItem and running the zod answer schema over them cost more
// than the SQL. Here the select list is toItem: column names are the item's
// keys in toItem's order, values what toItem makes (instants as
// Date#toISOString writes them), so pg's rows are the items and the route
// only JSON.stringifies the answer. toItem stays the mapping of the pages
// (statsTicketPages, the workers' export); command-api's sql-built-answers
// test holds the two equal through the zod serializer, byte for byte.

/** toItem as a select list (no cursor column: the answer is the rows as they come). */
const ITEM_COLUMNS = `s.ticket_id AS id, t.num_chrono, t.client_nom, t.site_nom, t.installation_nom, t.technicien_prenom, t.technicien_nom,
    ${isoInstantSql('s.created_at')} AS created_at, ${isoInstantSql('s.clos_at')} AS clos_at,
    ${flagColumns('$1::timestamptz')},
    ${INTERVENTIONS_COUNT} AS interventions_count`;

/**
 * The Statistiques screen: every ticket requested (created_at) within the
 * window, in scope and matching the filters, newest first, with its flags as
 * of `now`, and the summary of those flags (summarizeStats).
 */
export async function statsTickets(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters, now: Date): Promise<StatsTicketsAnswer> {
  const select = itemSelect(statsSelection(scope, filters, now, null));
  const items = select === null ? [] : (await db.query<StatsTicketItem>(select.sql, select.params)).rows;
  return { summary: summarizeStats(items), items };
}

function itemSelect(selection: StatsSelection | null): SnapshotSelect | null {
  return selection === null ? null : { sql: `SELECT ${ITEM_COLUMNS} FROM ${STATS_FROM} WHERE ${selection.where} ORDER BY ${STATS_ORDER}`, params: selection.params };
}

// ─── The answer streamed (issue 28) ─────────────────────────────────────────

/** Items per fetch of the streamed Statistiques answer (about 300 bytes of JSON each). */
const STATS_STREAM_PAGE_SIZE = 2000;

/** What the streamed Statistiques answer is told in its snapshot, before its first item. */
export interface StatsHead {
  /** The number of tickets, from the day sums: the route's ceiling refuses by throwing, before the summary is added up. */
  admit: (head: { total: number }) => void;
  /** summarizeStats of the items about to come. */
  summary: (summary: StatsSummary) => void;
}

/** summarizeStats of the selection's items, added up by Postgres over the same rows and flags (flagColumns: judged = not null). */
async function statsSummaryOf(db: Queryable, selection: StatsSelection): Promise<StatsSummary> {
  const { rows } = await db.query<{ judged: number; ok: number; devis_eligible: number; devis_ok: number }>(
    `SELECT count(*) FILTER (WHERE f.sla_ok IS NOT NULL)::int AS judged, count(*) FILTER (WHERE f.sla_ok)::int AS ok,
       count(*) FILTER (WHERE f.devis_ok IS NOT NULL)::int AS devis_eligible, count(*) FILTER (WHERE f.devis_ok)::int AS devis_ok
     FROM (SELECT ${flagColumns('$1::timestamptz')} FROM ${STATS_FROM} WHERE ${selection.where}) f`,
    selection.params,
  );
  return summaryOfCounts(rows[0] ?? { judged: 0, ok: 0, devis_eligible: 0, devis_ok: 0 });
}

/** summarizeStats' answer from its four counts. */
function summaryOfCounts(counts: { judged: number; ok: number; devis_eligible: number; devis_ok: number }): StatsSummary {
  return {
    sla_pct: percentWithOneDecimal(counts.ok, counts.judged),
    sla_ok: counts.ok,
    total: counts.judged,
    devis_pct: percentWithOneDecimal(counts.devis_ok, counts.devis_eligible),
    devis_ok: counts.devis_ok,
    devis_eligible: counts.devis_eligible,
  };
}

/**
 * The Statistiques answer streamed (issue 28): the count and the summary
 * first, then the items a page at a time, all in one snapshot (snapshotPages),
 * so the summary is exactly summarizeStats(items). `head` is not called when a
 * filter id is malformed (no rows: the caller writes the empty summary).
 */
export function statsItemPages(
  pool: Pick<pg.Pool, 'connect'>,
  scope: AgenceScope,
  filters: StatsTicketsFilters,
  now: Date,
  head: StatsHead,
  pageSize: number = STATS_STREAM_PAGE_SIZE,
): AsyncGenerator<StatsTicketItem[], void, undefined> {
  const selection = statsSelection(scope, filters, now, null);
  const readHead =
    selection === null
      ? undefined
      : async (db: Queryable) => {
          head.admit({ total: await statsTotal(db, scope, filters) });
          head.summary(await statsSummaryOf(db, selection));
        };
  return snapshotPages<StatsTicketItem>(pool, itemSelect(selection), pageSize, readHead);
}

// ─── Keyset pages of the answer (issue #19) ─────────────────────────────────
//
// `GET /api/stats/tickets?limit=`: one page of items (the same rows and order
// as statsTickets), and on the first page the summary and the weekly trend
// over the whole window, aggregated by Postgres per week (the week the ticket
// was opened in, Paris, Monday first) then summed here, so they never depend
// on which items were sent.

interface StatsWeekRow {
  week: string;
  rows: number;
  judged: number;
  ok: number;
  devis_eligible: number;
  devis_ok: number;
}

/**
 * Per-week counts of the selection: the settled part added up from
 * rm.ticket_sla_days (ticket-sla-days.ts), plus the rows whose flags still
 * depend on `now`, counted one by one through their partial index. Only
 * rm.ticket_sla's tables are read: the join to rm.tickets (names, for the
 * items) changes nothing, both being written by the same runner in the same
 * transactions (they could differ only while the tickets projector is
 * stopped on a failing event, and then the items lack those tickets too).
 */
async function statsWeekFigures(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters, selection: StatsSelection): Promise<StatsWeekRow[]> {
  const days = daySelection(scope, filters);
  const unsettledParams = [...selection.params, PARIS_TIME_ZONE];
  const [settled, unsettled] = await Promise.all([
    db.query<StatsWeekRow>(
      `SELECT to_char(date_trunc('week', d.day::timestamp), 'YYYY-MM-DD') AS week, sum(d.tickets)::int AS rows, sum(d.judged)::int AS judged,
         sum(d.ok)::int AS ok, sum(d.devis_eligible)::int AS devis_eligible, sum(d.devis_ok)::int AS devis_ok
       FROM rm.ticket_sla_days d WHERE ${days.where}
       GROUP BY 1`,
      days.params,
    ),
    db.query<{ week: string; judged: number; devis_eligible: number }>(
      `SELECT to_char(date_trunc('week', s.created_at AT TIME ZONE $${unsettledParams.length}::text), 'YYYY-MM-DD') AS week,
         -- flagColumns' flags not settled yet: judged once the deadline has passed, eligible once the window has.
         count(*) FILTER (WHERE s.sla_ok IS NULL AND s.sla_deadline < $1::timestamptz)::int AS judged,
         count(*) FILTER (WHERE s.devis_ok IS NULL AND s.devis_due_at < $1::timestamptz)::int AS devis_eligible
       FROM rm.ticket_sla s WHERE ${selection.where} AND ${UNSETTLED}
       GROUP BY 1`,
      unsettledParams,
    ),
  ]);
  const weeks = new Map(settled.rows.map((row) => [row.week, { ...row }]));
  for (const late of unsettled.rows) {
    const week = weeks.get(late.week) ?? { week: late.week, rows: 0, judged: 0, ok: 0, devis_eligible: 0, devis_ok: 0 };
    week.judged += late.judged;
    week.devis_eligible += late.devis_eligible;
    weeks.set(late.week, week);
  }
  return [...weeks.values()];
}

/** summarizeStats and the screen's weekly trend, from the per-week counts; every week of the window is there, oldest first. */
function summaryAndTrend(weeks: readonly StatsWeekRow[], filters: StatsTicketsFilters): Pick<StatsTicketsPage, 'summary' | 'weekly'> & { total: number } {
  const sum = (field: keyof Omit<StatsWeekRow, 'week'>) => weeks.reduce((acc, week) => acc + week[field], 0);
  const slaOk = sum('ok');
  const judged = sum('judged');
  const devisOk = sum('devis_ok');
  const devisEligible = sum('devis_eligible');
  const byWeek = new Map(weeks.map((week) => [week.week, week]));
  const mondays = new Set([...statsWeekMondays(filters.from, filters.to), ...byWeek.keys()]);
  return {
    summary: summaryOfCounts({ judged, ok: slaOk, devis_eligible: devisEligible, devis_ok: devisOk }),
    weekly: [...mondays].sort().map((week) => {
      const figures = byWeek.get(week);
      const ok = figures?.ok ?? 0;
      const weekJudged = figures?.judged ?? 0;
      return { week, label: statsWeekLabel(week), judged: weekJudged, ok, pct: percentWithOneDecimal(ok, weekJudged) };
    }),
    total: sum('rows'),
  };
}

/**
 * One page of the Statistiques answer: items in statsTickets' order after
 * the cursor, `total` the tickets the window and filters hold, and on the
 * first page only (no cursor) the summary and the weekly trend of them all.
 */
export async function statsTicketsPage(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters, now: Date, page: PageRequest): Promise<StatsTicketsPage> {
  const fingerprint = listFingerprint('stats', scope, filters);
  const key = page.cursor === undefined ? null : decodeCursor(page.cursor, fingerprint, ['instant', 'uuid']);
  const selection = statsSelection(scope, filters, now, null);
  if (selection === null) return { summary: null, weekly: null, items: [], next_cursor: null, total: 0 };
  const after = key === null ? null : { createdAt: String(key[0]), id: String(key[1]) };
  const [rows, figures] = await Promise.all([
    selectStatsRows(db, scope, filters, now, after, page.limit + 1),
    key === null
      ? statsWeekFigures(db, scope, filters, selection).then((weeks) => summaryAndTrend(weeks, filters))
      : statsTotal(db, scope, filters).then((total) => ({ summary: null, weekly: null, total })),
  ]);
  const items = pageOf(rows, page.limit, fingerprint, (row) => [row.cursor_created_at, row.id]);
  return { summary: figures.summary, weekly: figures.weekly, items: items.rows.map(toItem), next_cursor: items.next_cursor, total: figures.total };
}
