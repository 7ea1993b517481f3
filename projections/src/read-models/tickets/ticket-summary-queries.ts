import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { PENDING_QUOTE, requestDayClause } from './ticket-answer-sql.js';

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
