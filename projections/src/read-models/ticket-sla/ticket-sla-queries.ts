import {
  PARIS_TIME_ZONE,
  addCalendarDays,
  formatClosingDuration,
  percentWithOneDecimal,
  startOfParisDayMs,
  statsWeekLabel,
  statsWeekMondays,
  summarizeStats,
  type CalendarDay,
  type StatsSummary,
  type StatsTicketItem,
  type StatsTicketsPage,
  type StatsWindow,
  type TicketSummaryStats,
} from '@fsm/contracts';
import { orderedScopeClause, scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { isoInstantSql } from '../tickets/ticket-answer-sql.js';
import { decodeCursor, keysetInstantSql, listFingerprint, pageOf, type PageRequest } from '../keyset-cursor.js';
import { daySelection, UNSETTLED } from './ticket-sla-days.js';

/** GET /api/stats/tickets filters, the window already filled in (Paris days, both included). */
export interface StatsTicketsFilters {
  from: CalendarDay;
  to: CalendarDay;
  metier_id?: string | undefined;
  agence_id?: string | undefined;
}

export interface StatsTicketsAnswer {
  summary: StatsSummary;
  items: StatsTicketItem[];
}

/** Rows of one CSV page: enough to stream 100,000 tickets without holding them. */
export const STATS_PAGE_SIZE = 1000;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/*
 * Flags as of `now` (the parameter named below): a settled flag is stored; a
 * pending one (no arrival, no registered quote) is N/A until its deadline has
 * passed and false after — exactly slaOk / devisOk with that `now`.
 */
function flagColumns(nowParam: string): string {
  return `COALESCE(s.sla_ok, CASE WHEN s.sla_deadline < ${nowParam} THEN false END) AS sla_ok,
    COALESCE(s.devis_ok, CASE WHEN s.devis_due_at < ${nowParam} THEN false END) AS devis_ok`;
}

interface StatsRow {
  id: string;
  num_chrono: string;
  client_nom: string | null;
  site_nom: string | null;
  installation_nom: string | null;
  technicien_prenom: string | null;
  technicien_nom: string | null;
  created_at: Date;
  clos_at: Date | null;
  sla_ok: boolean | null;
  devis_ok: boolean | null;
  interventions_count: number;
  /** created_at as keysetInstantSql writes it (UTC, microseconds kept): the keyset cursor. */
  cursor_created_at: string;
}

function toItem(row: StatsRow): StatsTicketItem {
  return {
    id: row.id,
    num_chrono: row.num_chrono,
    client_nom: row.client_nom,
    site_nom: row.site_nom,
    installation_nom: row.installation_nom,
    technicien_prenom: row.technicien_prenom,
    technicien_nom: row.technicien_nom,
    created_at: row.created_at.toISOString(),
    clos_at: row.clos_at === null ? null : row.clos_at.toISOString(),
    sla_ok: row.sla_ok,
    devis_ok: row.devis_ok,
    interventions_count: row.interventions_count,
  };
}

/** [start of `from`, start of the day after `to`) in Paris, as instants. */
function windowBounds(window: { from: CalendarDay; to: CalendarDay }): [Date, Date] {
  return [new Date(startOfParisDayMs(window.from)), new Date(startOfParisDayMs(addCalendarDays(window.to, 1)))];
}

interface Cursor {
  createdAt: string;
  id: string;
}

/** What a keyset page needs of its rows: the ticket and its created_at as keysetInstantSql writes it (microseconds kept). */
interface PageRow {
  id: string;
  cursor_created_at: string;
}

/**
 * Which tickets the statistics cover, `$1` being `now` (the flags' clock) when
 * one is given (a count needs none); null when a filter id is malformed (no rows).
 */
interface StatsSelection {
  where: string;
  params: unknown[];
}

function statsSelection(scope: AgenceScope, filters: StatsTicketsFilters, now: Date | null, after: Cursor | null): StatsSelection | null {
  for (const id of [filters.metier_id, filters.agence_id]) if (id !== undefined && !GUID.test(id)) return null;
  const params: unknown[] = now === null ? [] : [now];
  params.push(...windowBounds(filters));
  let where = `s.created_at >= $${params.length - 1} AND s.created_at < $${params.length}${orderedScopeClause(scope, 's.agence_id', params)}`;
  if (filters.agence_id !== undefined) {
    params.push(filters.agence_id);
    where += ` AND s.agence_id = $${params.length}`;
  }
  if (filters.metier_id !== undefined) {
    params.push(filters.metier_id);
    where += ` AND s.metier_id = $${params.length}`;
  }
  if (after !== null) {
    params.push(after.createdAt, after.id);
    where += ` AND (s.created_at, s.ticket_id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
  }
  return { where, params };
}

const STATS_FROM = 'rm.ticket_sla s JOIN rm.tickets t ON t.id = s.ticket_id';
const STATS_ORDER = 's.created_at DESC, s.ticket_id DESC';
const INTERVENTIONS_COUNT = `(t.interventions_supp_count + CASE WHEN t.statut = 'clos' THEN 1 ELSE 0 END)::int`;

function limitClause(limit: number, params: unknown[]): string {
  params.push(limit);
  return ` LIMIT $${params.length}`;
}

/** One page of tickets requested within the window, newest first. */
async function selectStatsRows(
  db: Queryable,
  scope: AgenceScope,
  filters: StatsTicketsFilters,
  now: Date,
  after: Cursor | null,
  limit: number,
): Promise<StatsRow[]> {
  const selection = statsSelection(scope, filters, now, after);
  if (selection === null) return [];
  const { where, params } = selection;
  const sql = `SELECT s.ticket_id AS id, t.num_chrono, t.client_nom, t.site_nom, t.installation_nom, t.technicien_prenom, t.technicien_nom,
      s.created_at, s.clos_at, ${flagColumns('$1::timestamptz')},
      ${INTERVENTIONS_COUNT} AS interventions_count,
      ${keysetInstantSql('s.created_at')} AS cursor_created_at
    FROM ${STATS_FROM}
    WHERE ${where}
    ORDER BY ${STATS_ORDER}${limitClause(limit, params)}`;
  const { rows } = await db.query<StatsRow>(sql, params);
  return rows;
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
  const selection = statsSelection(scope, filters, now, null);
  const items =
    selection === null
      ? []
      : (await db.query<StatsTicketItem>(`SELECT ${ITEM_COLUMNS} FROM ${STATS_FROM} WHERE ${selection.where} ORDER BY ${STATS_ORDER}`, selection.params)).rows;
  return { summary: summarizeStats(items), items };
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
    summary: {
      sla_pct: percentWithOneDecimal(slaOk, judged),
      sla_ok: slaOk,
      total: judged,
      devis_pct: percentWithOneDecimal(devisOk, devisEligible),
      devis_ok: devisOk,
      devis_eligible: devisEligible,
    },
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

/** The tickets a window and its filters hold, from the day counts. */
async function statsTotal(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters): Promise<number> {
  const days = daySelection(scope, filters);
  const { rows } = await db.query<{ total: number }>(`SELECT coalesce(sum(d.tickets), 0)::int AS total FROM rm.ticket_sla_days d WHERE ${days.where}`, days.params);
  return rows[0]?.total ?? 0;
}

// ─── Pages ───────────────────────────────────────────────────────────────────

/**
 * Keyset pages (on created_at, id: no OFFSET, no open transaction or
 * connection between pages) of what `page` selects after the cursor.
 */
async function* keysetPages<Row extends PageRow>(
  pageSize: number,
  page: (after: Cursor | null) => Promise<Row[]>,
): AsyncGenerator<Row[], void, undefined> {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`page size ${pageSize}`);
  let after: Cursor | null = null;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < pageSize) return;
    after = { createdAt: last.cursor_created_at, id: last.id };
  }
}

/**
 * How many lines statsTicketPages yields for these filters: the denominator of
 * the workers' export progress (issue 5 item 6). A count that drifts (tickets
 * opened meanwhile) only makes the progress approximate — the exporter clamps
 * it below 100 until the last page is written.
 */
export async function countStatsTickets(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters): Promise<number> {
  const selection = statsSelection(scope, filters, null, null);
  if (selection === null) return 0;
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${STATS_FROM} WHERE ${selection.where}`, selection.params);
  return rows[0]?.n ?? 0;
}

/**
 * The same tickets in the same order, a page at a time, for the workers'
 * CSV export. `now` is fixed for the whole export.
 */
export async function* statsTicketPages(
  db: Queryable,
  scope: AgenceScope,
  filters: StatsTicketsFilters,
  now: Date,
  pageSize: number = STATS_PAGE_SIZE,
): AsyncGenerator<StatsTicketItem[], void, undefined> {
  for await (const rows of keysetPages(pageSize, (after) => selectStatsRows(db, scope, filters, now, after, pageSize))) yield rows.map(toItem);
}

// ─── CSV rows, dates written by Postgres ─────────────────────────────────────
//
// The streamed CSV spent most of its time writing two Paris dates a row with
// date-fns (a time-zone lookup through Intl each). Here Postgres writes them
// (to_char in the calendar's zone, from the tz database); the route builds
// each line with the contract's own helpers (toCsvLine, statsCsvFlag).
// command-api's sql-built-answers test holds the file equal to
// toCsvLine(statsCsvRow(item)) over statsTicketPages, byte for byte, both
// daylight-saving changes included.

/** A ticket of the CSV export: an item whose two instants are already written as the file writes them. */
export type StatsCsvItem = Omit<StatsTicketItem, 'created_at' | 'clos_at'> & {
  /** created_at as formatStatsCsvDate writes it (STATS_CSV_DATE_FORMAT, Paris). */
  cree_le: string;
  /** clos_at likewise; '' while the ticket is open. */
  cloture_le: string;
};

/** formatStatsCsvDate in SQL: 'dd/MM/yyyy HH:mm' (date-fns) is 'DD/MM/YYYY HH24:MI' (to_char). */
function csvDateSql(instant: string, timeZoneParam: string): string {
  return `COALESCE(to_char(${instant} AT TIME ZONE ${timeZoneParam}, 'DD/MM/YYYY HH24:MI'), '')`;
}

/**
 * The same tickets as statsTicketPages, in the same pages, as CSV items.
 * `now` is fixed for the whole export.
 */
export async function* statsCsvPages(
  db: Queryable,
  scope: AgenceScope,
  filters: StatsTicketsFilters,
  now: Date,
  pageSize: number = STATS_PAGE_SIZE,
): AsyncGenerator<StatsCsvItem[], void, undefined> {
  const page = async (after: Cursor | null) => {
    const selection = statsSelection(scope, filters, now, after);
    if (selection === null) return [];
    const { where, params } = selection;
    params.push(PARIS_TIME_ZONE);
    const timeZone = `$${params.length}::text`;
    const { rows } = await db.query<StatsCsvItem & PageRow>(
      `SELECT s.ticket_id AS id, t.num_chrono, t.client_nom, t.site_nom, t.installation_nom, t.technicien_prenom, t.technicien_nom,
         ${csvDateSql('s.created_at', timeZone)} AS cree_le, ${csvDateSql('s.clos_at', timeZone)} AS cloture_le,
         ${flagColumns('$1::timestamptz')}, ${INTERVENTIONS_COUNT} AS interventions_count,
         ${keysetInstantSql('s.created_at')} AS cursor_created_at
       FROM ${STATS_FROM}
       WHERE ${where}
       ORDER BY ${STATS_ORDER}${limitClause(pageSize, params)}`,
      params,
    );
    return rows;
  };
  yield* keysetPages(pageSize, page);
}

/**
 * The home summary's statistics (docs/sla.md §7) over `window`: tickets
 * requested within it, tickets closed within it, their mean closing time
 * (real time) and the performance indicator (closed on or before their
 * echeance). Aggregated in SQL, then shaped by the calendar's own helpers.
 */
export async function homeSummaryStats(db: Queryable, scope: AgenceScope, window: StatsWindow): Promise<TicketSummaryStats> {
  const [start, end] = windowBounds(window);
  const params: unknown[] = [start, end];
  const scoped = scopeClause(scope, 's.agence_id', params);
  const { rows } = await db.query<{ created: number; closed: number; mean_closing_ms: number | null; on_time: number; with_echeance: number }>(
    `SELECT
       (SELECT count(*)::int FROM rm.ticket_sla s WHERE s.created_at >= $1 AND s.created_at < $2${scoped}) AS created,
       c.*
     FROM (
       SELECT count(*)::int AS closed,
         (avg(extract(epoch FROM s.clos_at) - extract(epoch FROM s.created_at)) * 1000)::float8 AS mean_closing_ms,
         count(*) FILTER (WHERE s.echeance IS NOT NULL)::int AS with_echeance,
         count(*) FILTER (WHERE s.clos_at <= s.echeance)::int AS on_time
       FROM rm.ticket_sla s
       WHERE s.clos_at >= $1 AND s.clos_at < $2${scoped}
     ) c`,
    params,
  );
  const row = rows[0];
  if (!row) throw new Error('home summary: no row');
  return {
    from: window.from,
    to: window.to,
    created: row.created,
    closed: row.closed,
    mean_closing_ms: row.mean_closing_ms,
    mean_closing_time: formatClosingDuration(row.mean_closing_ms),
    performance: { pct: percentWithOneDecimal(row.on_time, row.with_echeance), count: row.on_time, total: row.with_echeance },
  };
}
