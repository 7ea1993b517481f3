import type pg from 'pg';
import type { OpenTicketCounts, Ticket, TicketStatus } from '@fsm/contracts';
import { orderedScopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { decodeCursor, keysetInstantSql, listFingerprint, type PageRequest } from '../keyset-cursor.js';
import {
  PENDING_QUOTE,
  STREAMED_TICKETS_PAGE_SIZE,
  createdAfterClause,
  selectTicketPage,
  selectTickets,
  streamedTicketPages,
  type AdmitRows,
  type KeysetRow,
  type TicketPage,
  type TicketSelection,
} from './ticket-answer-sql.js';

/** Open-list filters (the list's chips and its `?statut=&urgent=1&devis_attente=1` URL); `true` narrows, absent or `false` does not. */
export interface OpenTicketFilters {
  statut?: Exclude<TicketStatus, 'clos'>;
  urgent?: boolean;
  devis_attente?: boolean;
  /** Late tickets only (issue 32, item 8): not closed and past their échéance at the query's `now`; most late first. */
  en_retard?: boolean;
}

/** Spec §4 rank (urgent, ouvert, other non-closed; clos is never in the open list), then newest first, then id: `compareTicketsForList`. */
const OPEN_RANK = `CASE WHEN t.urgent THEN 0 WHEN t.statut = 'ouvert' THEN 1 ELSE 2 END`;
const OPEN_ORDER = `${OPEN_RANK}, t.created_at DESC, t.id DESC`;
/** The late view's order (issue 32): the oldest échéance is the most late; then id. Index tickets_open_echeance. */
const LATE_ORDER = 't.echeance, t.id';
/** `AND` late at `$nowParam`: the stored échéance is compared with the query's clock, nothing ticks. */
const lateClause = (nowParam: string) => `t.echeance < ${nowParam}`;

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

/** Open, in-progress and re-intervention tickets in scope, in list order (spec §4). */
export async function listOpenTickets(db: Queryable, scope: AgenceScope, now: Date, filters: OpenTicketFilters = {}): Promise<Ticket[]> {
  return selectTickets(db, openSelection(scope, filters, now), now);
}

/** The open list (`listOpenTickets`) a page at a time, for an answer streamed as it is read (issue 28); `admit` gets the count of the same selection. */
export function openTicketPages(
  pool: Pick<pg.Pool, 'connect'>,
  scope: AgenceScope,
  now: Date,
  filters: OpenTicketFilters,
  pageSize: number = STREAMED_TICKETS_PAGE_SIZE,
  admit?: AdmitRows,
): AsyncGenerator<Ticket[], void, undefined> {
  return streamedTicketPages(pool, openSelection(scope, filters, now), now, pageSize, admit);
}

export interface OpenTicketPage extends TicketPage {
  counts: OpenTicketCounts;
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
