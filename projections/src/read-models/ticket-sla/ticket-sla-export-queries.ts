import { PARIS_TIME_ZONE, type StatsTicketItem } from '@fsm/contracts';
import type { AgenceScope, Queryable } from '../queryable.js';
import { keysetInstantSql } from '../keyset-cursor.js';
import { statsTotal } from './ticket-sla-days.js';
import {
  INTERVENTIONS_COUNT,
  STATS_FROM,
  STATS_ORDER,
  flagColumns,
  limitClause,
  selectStatsRows,
  statsSelection,
  toItem,
  type Cursor,
  type PageRow,
  type StatsTicketsFilters,
} from './ticket-sla-selection.js';

/** Rows of one CSV page: enough to stream 100,000 tickets without holding them. */
export const STATS_PAGE_SIZE = 1000;

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
 * `now` is fixed for the whole export. Keyset pages, not one snapshot: a
 * download at the client's pace holds no transaction or connection between
 * pages. `admit` (issue 28) gets their number before the first page is read.
 */
export async function* statsCsvPages(
  db: Queryable,
  scope: AgenceScope,
  filters: StatsTicketsFilters,
  now: Date,
  pageSize: number = STATS_PAGE_SIZE,
  admit?: (head: { total: number }) => void,
): AsyncGenerator<StatsCsvItem[], void, undefined> {
  // From the day sums (a few thousand rows for two years of every agency): a ceiling needs no exact count.
  if (admit) admit({ total: await statsTotal(db, scope, filters) });
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
