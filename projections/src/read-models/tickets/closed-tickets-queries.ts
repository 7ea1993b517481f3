import type pg from 'pg';
import { NUM_CHRONO_PATTERN, type ClosedTicketsQuery, type Ticket } from '@fsm/contracts';
import { orderedScopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { closedTicketsTotalFromDays } from '../ticket-sla/ticket-sla-days.js';
import { decodeCursor, keysetInstantSql, listFingerprint, type PageRequest } from '../keyset-cursor.js';
import {
  GUID,
  PENDING_QUOTE,
  STREAMED_TICKETS_PAGE_SIZE,
  createdAfterClause,
  requestDayClause,
  selectTicketPage,
  selectTickets,
  streamedTicketPages,
  type AdmitRows,
  type TicketPage,
  type TicketSelection,
} from './ticket-answer-sql.js';

/**
 * Closed search (`GET /api/tickets/clos`): French calendar days on the request
 * date (`created_at`), both inclusive. An absent bound is open: applying the
 * default 30-day range is the caller's job (`defaultClosedTicketsRange`).
 */
export type ClosedTicketFilters = ClosedTicketsQuery;

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

/** Closed tickets in scope matching every given filter, newest request first. */
export async function searchClosedTickets(db: Queryable, scope: AgenceScope, now: Date, filters: ClosedTicketFilters): Promise<Ticket[]> {
  return selectTickets(db, closedSelection(scope, filters), now);
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

/**
 * The closed search a page at a time (snapshotPages), for an answer streamed
 * as it is read: the pages are exactly what `searchClosedTickets` returns.
 * `admit` gets the count first: from the day sums when the filters allow
 * (closedTicketsTotalFromDays, a few thousand rows for two years of every
 * agency), else counted over the same selection.
 */
export function closedTicketPages(
  pool: Pick<pg.Pool, 'connect'>,
  scope: AgenceScope,
  now: Date,
  filters: ClosedTicketFilters,
  pageSize: number = STREAMED_TICKETS_PAGE_SIZE,
  admit?: AdmitRows,
): AsyncGenerator<Ticket[], void, undefined> {
  // The day sums know nothing of the searched text: count the rows then.
  const fromDays = async (db: Queryable) => (filters.q === undefined ? closedTicketsTotalFromDays(db, scope, filters) : null);
  return streamedTicketPages(pool, closedSelection(scope, filters), now, pageSize, admit, fromDays);
}
