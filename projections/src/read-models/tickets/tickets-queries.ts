import type pg from 'pg';
import { NUM_CHRONO_PATTERN, PARIS_TIME_ZONE, ticketSchema, type ClosedTicketsQuery, type OpenTicketCounts, type Ticket, type TicketStatus } from '@fsm/contracts';
import { orderedScopeClause, scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { closedTicketsTotalFromDays } from '../ticket-sla/ticket-sla-days.js';
import { decodeCursor, keysetInstantSql, listFingerprint, pageOf, type PageRequest } from '../keyset-cursor.js';

/** Open-list filters (the list's chips and its `?statut=&urgent=1&devis_attente=1` URL); `true` narrows, absent or `false` does not. */
export interface OpenTicketFilters {
  statut?: Exclude<TicketStatus, 'clos'>;
  urgent?: boolean;
  devis_attente?: boolean;
  /** Late tickets only (issue 32, item 8): not closed and past their échéance at the query's `now`; most late first. */
  en_retard?: boolean;
}

/**
 * Closed search (`GET /api/tickets/clos`): French calendar days on the request
 * date (`created_at`), both inclusive. An absent bound is open: applying the
 * default 30-day range is the caller's job (`defaultClosedTicketsRange`).
 */
export type ClosedTicketFilters = ClosedTicketsQuery;

export interface TicketSummaryCounts {
  ouvert: number;
  en_cours: number;
  intervention: number;
  clos: number;
  /** Non-closed urgent tickets (the open list's Urgents). */
  urgent: number;
  /** Non-closed tickets whose quote is pending (the open list with devis_attente=1). */
  devis_attente: number;
  /** Closed tickets whose quote is pending (the closed list with devis_attente=1). */
  clos_devis_attente: number;
}

/** Spec §4 rank (urgent, ouvert, other non-closed; clos is never in the open list), then newest first, then id: `compareTicketsForList`. */
const OPEN_RANK = `CASE WHEN t.urgent THEN 0 WHEN t.statut = 'ouvert' THEN 1 ELSE 2 END`;
const OPEN_ORDER = `${OPEN_RANK}, t.created_at DESC, t.id DESC`;
const PENDING_QUOTE = `t.devis = 1 AND t.numero_devis IS NULL`;
/** The late view's order (issue 32): the oldest échéance is the most late; then id. Index tickets_open_echeance. */
const LATE_ORDER = 't.echeance, t.id';
/** `AND` late at `$nowParam`: the stored échéance is compared with the query's clock, nothing ticks. */
const lateClause = (nowParam: string) => `t.echeance < ${nowParam}`;

/*
 * Accent- and case-insensitive text search (issue 32, item 9) without the
 * unaccent extension: lower() then translate() of the accented letters French
 * names use. The searched text is folded the same way in JS (foldSearchText).
 */
// Accents are translated before lower(), which a database in the C locale applies to ASCII only.
const FOLD_FROM = 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝŸ';
const FOLD_TO = 'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUYY';
if ([...FOLD_FROM].length !== [...FOLD_TO].length) throw new Error('FOLD_FROM and FOLD_TO differ in length');
const foldSql = (text: string) => `lower(translate(${text}, '${FOLD_FROM}', '${FOLD_TO}'))`;
/** What the closed search's text is looked for in: number, client, site, town, installation, technician in charge and closing technician. */
const SEARCHED_TEXT = foldSql(
  `concat_ws(' ', t.num_chrono, t.client_nom, t.site_nom, t.site_ville, t.installation_nom, t.technicien_prenom, t.technicien_nom, t.clos_technicien_prenom, t.clos_technicien_nom)`,
);

/** Lower case without diacritics (`Hélène` → `helene`), as foldSql does in SQL. */
function foldSearchText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** `AND` the closed search's text: a whole chrono number exactly (index tickets_num_chrono), anything else as a folded substring. */
function searchTextClause(q: string | undefined, params: unknown[]): string {
  if (q === undefined) return '';
  const chrono = q.toUpperCase();
  if (NUM_CHRONO_PATTERN.test(chrono)) {
    params.push(chrono);
    return ` AND t.num_chrono = $${params.length}`;
  }
  params.push(foldSearchText(q));
  return ` AND strpos(${SEARCHED_TEXT}, $${params.length}) > 0`;
}
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Where the API serves a ticket photo from its file-store reference. */
function ticketPhotoUrl(ref: string): string {
  return `/api/files/${encodeURIComponent(ref)}`;
}

/** `AND <created_at> within [date_debut, date_fin]`, French calendar days, both inclusive. */
function requestDayClause(range: { date_debut?: string | undefined; date_fin?: string | undefined }, params: unknown[]): string {
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
interface TicketSelection {
  where: string;
  order: string;
  params: unknown[];
}

/** Open, in-progress and re-intervention tickets in scope, in list order (spec §4); late ones only, most late first, with `en_retard`. */
function openSelection(scope: AgenceScope, filters: OpenTicketFilters, now: Date): TicketSelection {
  const params: unknown[] = [];
  let where = `t.statut <> 'clos'${orderedScopeClause(scope, 't.agence_id', params)}`;
  if (filters.statut !== undefined) {
    params.push(filters.statut);
    where += ` AND t.statut = $${params.length}`;
  }
  if (filters.urgent === true) where += ' AND t.urgent';
  if (filters.devis_attente === true) where += ` AND ${PENDING_QUOTE}`;
  if (filters.en_retard === true) {
    params.push(now);
    where += ` AND ${lateClause(`$${params.length}::timestamptz`)}`;
    return { where, order: LATE_ORDER, params };
  }
  return { where, order: OPEN_ORDER, params };
}

/** Closed tickets in scope matching every given filter, newest request first; null when a filter id is malformed (nothing matches). */
function closedSelection(scope: AgenceScope, filters: ClosedTicketFilters): TicketSelection | null {
  const params: unknown[] = [];
  let where = `t.statut = 'clos'${orderedScopeClause(scope, 't.agence_id', params)}${requestDayClause(filters, params)}`;
  for (const column of ['client_id', 'site_id', 'installation_id', 'metier_id'] as const) {
    const value = filters[column];
    if (value === undefined) continue;
    if (!GUID.test(value)) return null;
    params.push(value);
    where += ` AND t.${column} = $${params.length}`;
  }
  if (filters.technicien_id !== undefined) {
    if (!GUID.test(filters.technicien_id)) return null;
    // The technician in charge, or the one who closed it when someone else did.
    params.push(filters.technicien_id);
    where += ` AND (t.technicien_id = $${params.length} OR t.clos_technicien_id = $${params.length})`;
  }
  if (filters.devis_attente === true) where += ` AND ${PENDING_QUOTE}`;
  where += searchTextClause(filters.q, params);
  return { where, order: 't.created_at DESC, t.id DESC', params };
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
function answerColumns(nowParam: string): string {
  const computed = computedAnswerColumns(nowParam);
  return ANSWER_KEYS.map((key) => {
    const sql = computed[key];
    return sql === undefined ? `t.${key}` : `${sql} AS ${key}`;
  }).join(', ');
}

/** A row of answerColumns made the answer's ticket: only the photo reference becomes its URL, in place (the key keeps its position). */
function answerTicket(row: Ticket): Ticket {
  if (row.photo !== null) row.photo = ticketPhotoUrl(row.photo);
  return row;
}

async function selectTickets(db: Queryable, selection: TicketSelection | null, now: Date): Promise<Ticket[]> {
  if (selection === null) return [];
  const params = [...selection.params, now];
  const { rows } = await db.query<Ticket>(
    `SELECT ${answerColumns(`$${params.length}::timestamptz`)} FROM rm.tickets t WHERE ${selection.where} ORDER BY ${selection.order}`,
    params,
  );
  return rows.map(answerTicket);
}

/** Open, in-progress and re-intervention tickets in scope, in list order (spec §4). */
export async function listOpenTickets(db: Queryable, scope: AgenceScope, now: Date, filters: OpenTicketFilters = {}): Promise<Ticket[]> {
  return selectTickets(db, openSelection(scope, filters, now), now);
}

/** Closed tickets in scope matching every given filter, newest request first. */
export async function searchClosedTickets(db: Queryable, scope: AgenceScope, now: Date, filters: ClosedTicketFilters): Promise<Ticket[]> {
  return selectTickets(db, closedSelection(scope, filters), now);
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

export interface OpenTicketPage extends TicketPage {
  counts: OpenTicketCounts;
}

/** The sort-key columns a page query adds after the answer's own (removed before answering). */
interface KeysetRow {
  cursor_rank?: number;
  cursor_created_at?: string;
}

/**
 * One page of `selection`. `afterSql` is the keyset condition given the
 * cursor's key; `keyColumns` the select-list items that give that key back.
 */
async function selectTicketPage(
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
function createdAfterClause(params: unknown[], createdAt: string | number | undefined, id: string | number | undefined): string {
  params.push(createdAt, id);
  return ` AND (t.created_at, t.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
}

/**
 * A page of the open list (`listOpenTickets` in the same order), the number
 * of tickets its filters match and the chips' counts: Tout, Urgents, Ouverts,
 * En cours, Interventions over the caller's scope, narrowed by `devis_attente`
 * only, as the list screen counts them. `lateCount` (issue 32) adds the
 * « En retard » chip's count, `en_retard`, counted the same way.
 */
export async function openTicketsPage(
  db: Queryable,
  scope: AgenceScope,
  now: Date,
  filters: OpenTicketFilters,
  page: PageRequest,
  options: { lateCount?: boolean } = {},
): Promise<OpenTicketPage> {
  const late = filters.en_retard === true;
  // The late view has its own order, so its own cursors; the other lists' fingerprints are unchanged.
  const fingerprint = listFingerprint(late ? 'tickets-open-late' : 'tickets-open', scope, { statut: filters.statut, urgent: filters.urgent === true, devis_attente: filters.devis_attente === true });
  const selection = openSelection(scope, filters, now);
  let after = '';
  if (page.cursor !== undefined && late) {
    const [echeance, id] = decodeCursor(page.cursor, fingerprint, ['instant', 'uuid']);
    selection.params.push(echeance, id);
    after = ` AND (t.echeance, t.id) > ($${selection.params.length - 1}::timestamptz, $${selection.params.length}::uuid)`;
  } else if (page.cursor !== undefined) {
    const [rank, createdAt, id] = decodeCursor(page.cursor, fingerprint, ['rank', 'instant', 'uuid']);
    selection.params.push(rank);
    const rankParam = `$${selection.params.length}::int`;
    const created = createdAfterClause(selection.params, createdAt, id).replace(/^ AND /, '');
    after = ` AND (${OPEN_RANK} > ${rankParam} OR (${OPEN_RANK} = ${rankParam} AND ${created}))`;
  }
  const counted = openSelection(scope, filters.devis_attente === true ? { devis_attente: true } : {}, now);
  const chips: string[] = [];
  if (filters.statut !== undefined) {
    counted.params.push(filters.statut);
    chips.push(`t.statut = $${counted.params.length}`);
  }
  if (filters.urgent === true) chips.push('t.urgent');
  let lateCount = '';
  if (late || options.lateCount === true) {
    counted.params.push(now);
    const lateNow = lateClause(`$${counted.params.length}::timestamptz`);
    if (late) chips.push(lateNow);
    if (options.lateCount === true) lateCount = `, count(*) FILTER (WHERE ${lateNow})::int AS en_retard`;
  }
  const chip = chips.join(' AND ');
  const keyColumns = late
    ? `${keysetInstantSql('t.echeance')} AS cursor_created_at`
    : `${OPEN_RANK} AS cursor_rank, ${keysetInstantSql('t.created_at')} AS cursor_created_at`;
  const keyOf = late
    ? (row: KeysetRow & { id: string }) => [row.cursor_created_at ?? '', row.id]
    : (row: KeysetRow & { id: string }) => [row.cursor_rank ?? 0, row.cursor_created_at ?? '', row.id];
  const [rows, counts] = await Promise.all([
    selectTicketPage(db, selection, now, page.limit, after, keyColumns, fingerprint, keyOf),
    db.query<OpenTicketCounts & { total: number }>(
      `SELECT count(*)::int AS tout, count(*) FILTER (WHERE t.urgent)::int AS urgents,
         count(*) FILTER (WHERE t.statut = 'ouvert')::int AS ouverts, count(*) FILTER (WHERE t.statut = 'en_cours')::int AS en_cours,
         count(*) FILTER (WHERE t.statut = 'intervention')::int AS interventions${lateCount},
         ${chip === '' ? 'count(*)' : `count(*) FILTER (WHERE ${chip})`}::int AS total
       FROM rm.tickets t WHERE ${counted.where}`,
      counted.params,
    ),
  ]);
  const row = counts.rows[0];
  if (!row) throw new Error('open ticket counts: no row');
  const { total, ...chipCounts } = row;
  return { ...rows, total, counts: chipCounts };
}

/** A page of the closed search (`searchClosedTickets` in the same order) and the number of tickets its filters match. */
export async function closedTicketsPage(db: Queryable, scope: AgenceScope, now: Date, filters: ClosedTicketFilters, page: PageRequest): Promise<TicketPage> {
  const fingerprint = listFingerprint('tickets-closed', scope, filters);
  const selection = closedSelection(scope, filters);
  // Checked even when nothing can match: a bad cursor is a 400 on every list.
  const key = page.cursor === undefined ? null : decodeCursor(page.cursor, fingerprint, ['instant', 'uuid']);
  if (selection === null) return { tickets: [], next_cursor: null, total: 0 };
  const counted = { where: selection.where, params: [...selection.params] };
  const after = key === null ? '' : createdAfterClause(selection.params, key[0], key[1]);
  const [rows, counts] = await Promise.all([
    selectTicketPage(db, selection, now, page.limit, after, `${keysetInstantSql('t.created_at')} AS cursor_created_at`, fingerprint, (row) => [
      row.cursor_created_at ?? '',
      row.id,
    ]),
    // Request days, scope and trade only: added up from rm.ticket_sla_days (two years of every agency is a million tickets).
    // The day sums know nothing of the searched text: count the rows then.
    (filters.q === undefined ? closedTicketsTotalFromDays(db, scope, filters) : Promise.resolve(null)).then(
      async (total) => total ?? (await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM rm.tickets t WHERE ${counted.where}`, counted.params)).rows[0]?.total ?? 0,
    ),
  ]);
  return { ...rows, total: counts };
}

/** Tickets per fetch when a closed search is streamed. */
export const CLOSED_TICKETS_PAGE_SIZE = 2_000;

/**
 * The closed search a page at a time, for an answer streamed as it is read:
 * a year of an agency at 1M tickets is 60,000 tickets and 96 MB of JSON, and
 * holding it whole took the API process from 270 MB to 1 GB. One snapshot
 * (a read-only repeatable-read transaction and a cursor on one connection),
 * so the pages are exactly what `searchClosedTickets` returns. Stopping the
 * iteration early (the client went away) rolls back and frees the connection.
 */
export async function* closedTicketPages(
  pool: Pick<pg.Pool, 'connect'>,
  scope: AgenceScope,
  now: Date,
  filters: ClosedTicketFilters,
  pageSize: number = CLOSED_TICKETS_PAGE_SIZE,
): AsyncGenerator<Ticket[], void, undefined> {
  const selection = closedSelection(scope, filters);
  if (selection === null) return;
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const params = [...selection.params, now];
    await client.query(
      `DECLARE closed_tickets NO SCROLL CURSOR FOR
       SELECT ${answerColumns(`$${params.length}::timestamptz`)} FROM rm.tickets t WHERE ${selection.where} ORDER BY ${selection.order}`,
      params,
    );
    for (;;) {
      const { rows } = await client.query<Ticket>(`FETCH ${pageSize} FROM closed_tickets`);
      if (rows.length > 0) yield rows.map(answerTicket);
      if (rows.length < pageSize) break;
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    if (!finished) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

/** One ticket, or null when it does not exist or is outside the caller's scope: the lists' select list, so the detail is their ticket. */
export async function findTicket(db: Queryable, scope: AgenceScope, id: string, now: Date): Promise<Ticket | null> {
  if (!GUID.test(id)) return null;
  const params: unknown[] = [id, now];
  const { rows } = await db.query<Ticket>(
    `SELECT ${answerColumns('$2::timestamptz')} FROM rm.tickets t WHERE t.id = $1${scopeClause(scope, 't.agence_id', params)}`,
    params,
  );
  const row = rows[0];
  return row ? answerTicket(row) : null;
}

/**
 * The home summary's counts. Closed counts cover every closed ticket, or only
 * those requested within `closedRange` (same day rule as the closed search),
 * so a tile can match the list it links to.
 */
export async function ticketSummaryCounts(
  db: Queryable,
  scope: AgenceScope,
  closedRange: { date_debut?: string | undefined; date_fin?: string | undefined } = {},
): Promise<TicketSummaryCounts> {
  const params: unknown[] = [];
  const scoped = scopeClause(scope, 't.agence_id', params);
  const closedWhere = `t.statut = 'clos'${scoped}${requestDayClause(closedRange, params)}`;
  const { rows } = await db.query<TicketSummaryCounts>(
    `SELECT o.*, c.* FROM
       (SELECT
          count(*) FILTER (WHERE t.statut = 'ouvert')::int AS ouvert,
          count(*) FILTER (WHERE t.statut = 'en_cours')::int AS en_cours,
          count(*) FILTER (WHERE t.statut = 'intervention')::int AS intervention,
          count(*) FILTER (WHERE t.urgent)::int AS urgent,
          count(*) FILTER (WHERE ${PENDING_QUOTE})::int AS devis_attente
        FROM rm.tickets t WHERE t.statut <> 'clos'${scoped}) o
     CROSS JOIN
       (SELECT count(*)::int AS clos, count(*) FILTER (WHERE ${PENDING_QUOTE})::int AS clos_devis_attente
        FROM rm.tickets t WHERE ${closedWhere}) c`,
    params,
  );
  const counts = rows[0];
  if (!counts) throw new Error('ticket counts: no row');
  return counts;
}

/** Internal facts of one visit for the report (never sent to the browser). */
export interface TicketVisitSignatures {
  signature_client_ref: string;
  signature_technicien_ref: string;
  technicien_prenom: string;
  technicien_nom: string;
}

/**
 * Signature references and technician of a visit, for rendering its report:
 * the closing visit when `interventionId` is null, else that re-intervention.
 * Null when the visit is unknown or the ticket is not closed yet.
 */
export async function findVisitSignatures(db: Queryable, ticketId: string, interventionId: string | null): Promise<TicketVisitSignatures | null> {
  if (!GUID.test(ticketId) || (interventionId !== null && !GUID.test(interventionId))) return null;
  const { rows } =
    interventionId === null
      ? await db.query<TicketVisitSignatures>(
          `SELECT signature_client_ref, signature_technicien_ref, clos_technicien_prenom AS technicien_prenom, clos_technicien_nom AS technicien_nom
           FROM rm.tickets WHERE id = $1 AND statut = 'clos' AND signature_client_ref IS NOT NULL`,
          [ticketId],
        )
      : await db.query<TicketVisitSignatures>(
          `SELECT signature_client_ref, signature_technicien_ref, technicien_prenom, technicien_nom
           FROM rm.ticket_interventions WHERE id = $1 AND ticket_id = $2`,
          [interventionId, ticketId],
        );
  return rows[0] ?? null;
}
