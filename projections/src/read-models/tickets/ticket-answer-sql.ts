import { PARIS_TIME_ZONE, ticketSchema, type Ticket } from '@fsm/contracts';
import type pg from 'pg';
import type { Queryable } from '../queryable.js';
import { pageOf } from '../keyset-cursor.js';
import { selectTotal, snapshotPages, type SnapshotSelect } from '../snapshot-pages.js';

/*
 * What every ticket list and the detail share: the selection a list is, the
 * select list that is the answer, and a keyset page of it.
 */

/** A quote is asked for and has no number yet (the lists' and the summary's devis_attente). */
export const PENDING_QUOTE = `t.devis = 1 AND t.numero_devis IS NULL`;
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Where the API serves a ticket photo from its file-store reference. */
function ticketPhotoUrl(ref: string): string {
  return `/api/files/${encodeURIComponent(ref)}`;
}

/** `AND <created_at> within [date_debut, date_fin]`, French calendar days, both inclusive (the closed search and the summary's closed counts). */
export function requestDayClause(range: { date_debut?: string | undefined; date_fin?: string | undefined }, params: unknown[]): string {
  let sql = '';
  if (range.date_debut !== undefined) {
    params.push(checkDay(range.date_debut));
    sql += ` AND t.created_at >= ($${params.length}::date::timestamp AT TIME ZONE '${PARIS_TIME_ZONE}')`;
  }
  if (range.date_fin !== undefined) {
    params.push(checkDay(range.date_fin));
    sql += ` AND t.created_at < (($${params.length}::date + 1)::timestamp AT TIME ZONE '${PARIS_TIME_ZONE}')`;
  }
  return sql;
}

function checkDay(day: string): string {
  if (!DAY.test(day)) throw new Error(`not a YYYY-MM-DD day: ${day}`);
  return day;
}

/** Which tickets a list shows, and in what order. */
export interface TicketSelection {
  where: string;
  order: string;
  params: unknown[];
}

// ─── Answers, shaped by Postgres ─────────────────────────────────────────────
//
// A list is thousands of tickets (an agency's 30 closed days at 1M tickets:
// 6,000 rows, 10 MB of JSON). Mapping each row in JS (each instant parsed
// into a Date, then printed again) and running the zod answer schema over
// the list cost more than the SQL. So the select list *is* the answer: its
// column names are `ticketSchema`'s keys, in its order, and each value is
// the answer's (instants as Date#toISOString writes them, computed fields),
// so pg's rows are the tickets and the list routes only JSON.stringify them.
// The detail (findTicket) reads the same select list; command-api's
// sql-built-answers test holds every list equal, byte for byte, to its
// tickets' details through the zod serializer.

/** `Date#toISOString()` of a timestamptz, in SQL: UTC, milliseconds (truncated, as pg's Date parsing truncates), 'Z'. */
export function isoInstantSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** `Date#getTime()` of a timestamptz as pg parses it: whole milliseconds, sub-millisecond digits dropped. */
function epochMsSql(instant: string): string {
  return `floor(extract(epoch FROM ${instant}) * 1000)::bigint`;
}

/** The answer's keys, in its order: a key with no SQL below is the `rm.tickets` column of that name. */
const ANSWER_KEYS = Object.keys(ticketSchema.shape) as (keyof Ticket)[];

/**
 * The answer's values that are not a column of the same name. `nowParam` is
 * the answer's clock (minutes_ecoulees of open tickets): bigint division
 * truncates, which is Math.floor for the non-negative differences, and a
 * negative one ends at 0 either way. `photo` is still the file-store
 * reference: ticketPhotoUrl makes it a URL (answerTicket).
 */
function computedAnswerColumns(nowParam: string): Partial<Record<keyof Ticket, string>> {
  const end = `COALESCE(CASE WHEN t.statut = 'clos' THEN t.clos_at END, ${nowParam})`;
  return {
    astreinte: 'CASE WHEN t.astreinte = 1 THEN 1 ELSE 0 END',
    photo: 't.photo_ref',
    created_at: isoInstantSql('t.created_at'),
    clos_at: isoInstantSql('t.clos_at'),
    arrive_at: isoInstantSql('t.arrive_at'),
    echeance: isoInstantSql('t.echeance'),
    minutes_ecoulees: `GREATEST(0, (${epochMsSql(end)} - ${epochMsSql('t.created_at')}) / 60000)::int`,
    id_technicien: 't.technicien_id',
    devis: 'CASE WHEN t.devis = 1 THEN 1 ELSE 0 END',
    date_devis: isoInstantSql('t.date_devis'),
    interventions_count: `t.interventions_supp_count + CASE WHEN t.statut = 'clos' THEN 1 ELSE 0 END`,
    prenom: 't.demandeur_prenom',
    nom: 't.demandeur_nom',
    email: 't.demandeur_email',
    telephone: 't.demandeur_telephone',
  };
}

/** `ticketSchema` as a select list: its keys in its order, so pg's rows are the answer's tickets. */
export function answerColumns(nowParam: string): string {
  const computed = computedAnswerColumns(nowParam);
  return ANSWER_KEYS.map((key) => {
    const sql = computed[key];
    return sql === undefined ? `t.${key}` : `${sql} AS ${key}`;
  }).join(', ');
}

/** A row of answerColumns made the answer's ticket: only the photo reference becomes its URL, in place (the key keeps its position). */
export function answerTicket(row: Ticket): Ticket {
  if (row.photo !== null) row.photo = ticketPhotoUrl(row.photo);
  return row;
}

export async function selectTickets(db: Queryable, selection: TicketSelection | null, now: Date): Promise<Ticket[]> {
  const select = answerSelect(selection, now);
  if (select === null) return [];
  const { rows } = await db.query<Ticket>(select.sql, select.params);
  return rows.map(answerTicket);
}

// ─── Streamed lists (issue 28) ───────────────────────────────────────────────
//
// The open list and the closed search without `limit`: the same selection and
// select list, read a page at a time in one snapshot (snapshotPages).

/**
 * Tickets per fetch when a list is streamed: about 800 KB of JSON. What one
 * streamed answer holds at once is a few pages (the one read, the one written,
 * the socket's), so this sets the memory of each of the heavy reads allowed at
 * once (issue 28: 2,000 made the API grow by ~25 MB per stream).
 */
export const STREAMED_TICKETS_PAGE_SIZE = 500;

/**
 * Told, in the snapshot a streamed list is read in and before its first row,
 * how many rows the list holds: the caller's ceiling refuses by throwing
 * (issue 28), and nothing has been sent yet.
 */
export type AdmitRows = (head: { total: number }) => void;

/** `selection` as a select of the answer's columns, in its order (snapshotPages' select). */
function answerSelect(selection: TicketSelection | null, now: Date): SnapshotSelect | null {
  if (selection === null) return null;
  const params = [...selection.params, now];
  return { sql: `SELECT ${answerColumns(`$${params.length}::timestamptz`)} FROM rm.tickets t WHERE ${selection.where} ORDER BY ${selection.order}`, params };
}

/** The answer's tickets of snapshotPages' rows (the photo reference made a URL). */
async function* answerPages(pages: AsyncGenerator<Ticket[], void, undefined>): AsyncGenerator<Ticket[], void, undefined> {
  try {
    for (let page = await pages.next(); !page.done; page = await pages.next()) yield page.value.map(answerTicket);
  } finally {
    await pages.return(undefined);
  }
}

/** `selection`'s answer a page at a time in one snapshot, `admit` told first its count over the same rows (or `countOf`'s, cheaper, when given). */
export function streamedTicketPages(
  pool: Pick<pg.Pool, 'connect'>,
  selection: TicketSelection | null,
  now: Date,
  pageSize: number,
  admit?: AdmitRows,
  countOf?: (db: Queryable) => Promise<number | null>,
): AsyncGenerator<Ticket[], void, undefined> {
  const head =
    admit && selection
      ? async (db: Queryable) => {
          const cheap = countOf ? await countOf(db) : null;
          admit({ total: cheap ?? (await selectTotal(db, `SELECT count(*)::int AS total FROM rm.tickets t WHERE ${selection.where}`, selection.params)) });
        }
      : undefined;
  return answerPages(snapshotPages<Ticket>(pool, answerSelect(selection, now), pageSize, head));
}

// ─── Keyset pages (issue #19) ────────────────────────────────────────────────
//
// The same lists one page at a time, on their own sort key plus the id
// (never OFFSET: a page costs the same wherever it is). Rows are read with
// `limit + 1` to know whether another page follows; `total` is a count over
// the same WHERE, and the open list's chips are counted by SQL too.

export interface TicketPage {
  tickets: Ticket[];
  next_cursor: string | null;
  total: number;
}

/** The sort-key columns a page query adds after the answer's own (removed before answering). */
export interface KeysetRow {
  cursor_rank?: number;
  cursor_created_at?: string;
}

/**
 * One page of `selection`. `afterSql` is the keyset condition given the
 * cursor's key; `keyColumns` the select-list items that give that key back.
 */
export async function selectTicketPage(
  db: Queryable,
  selection: TicketSelection,
  now: Date,
  limit: number,
  after: string,
  keyColumns: string,
  fingerprint: string,
  keyOf: (row: KeysetRow & { id: string }) => (string | number)[],
): Promise<{ tickets: Ticket[]; next_cursor: string | null }> {
  const params = [...selection.params, now];
  const nowParam = `$${params.length}::timestamptz`;
  params.push(limit + 1);
  const { rows } = await db.query<Ticket & KeysetRow>(
    `SELECT ${answerColumns(nowParam)}, ${keyColumns} FROM rm.tickets t WHERE ${selection.where}${after} ORDER BY ${selection.order} LIMIT $${params.length}`,
    params,
  );
  const page = pageOf(rows, limit, fingerprint, keyOf);
  for (const row of page.rows) {
    delete row.cursor_rank;
    delete row.cursor_created_at;
    answerTicket(row);
  }
  return { tickets: page.rows, next_cursor: page.next_cursor };
}

/** `AND (created_at, id) < (key)`: after the cursor's row in a newest-first order. */
export function createdAfterClause(params: unknown[], createdAt: string | number | undefined, id: string | number | undefined): string {
  params.push(createdAt, id);
  return ` AND (t.created_at, t.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
}
