import { addCalendarDays, startOfParisDayMs } from '@fsm/contracts';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import type { StatsTicketsFilters } from '../ticket-sla/ticket-sla-queries.js';

/*
 * Row counts for the workers' exports (issue 5 item 6): the denominator of the
 * progress value. They repeat the WHERE of statsTicketPages and
 * listQrCodesForExport; a count that drifts (tickets opened meanwhile) only
 * makes the progress approximate — the exporter clamps it below 100 until the
 * last page is written.
 */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many lines statsTicketPages yields for these filters (created_at in the Paris window, scope, métier, agence). */
export async function countStatsTickets(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters): Promise<number> {
  for (const id of [filters.metier_id, filters.agence_id]) if (id !== undefined && !GUID.test(id)) return 0;
  const params: unknown[] = [new Date(startOfParisDayMs(filters.from)), new Date(startOfParisDayMs(addCalendarDays(filters.to, 1)))];
  let where = `s.created_at >= $1 AND s.created_at < $2${scopeClause(scope, 's.agence_id', params)}`;
  if (filters.agence_id !== undefined) {
    params.push(filters.agence_id);
    where += ` AND s.agence_id = $${params.length}`;
  }
  if (filters.metier_id !== undefined) {
    params.push(filters.metier_id);
    where += ` AND s.metier_id = $${params.length}`;
  }
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm.ticket_sla s JOIN rm.tickets t ON t.id = s.ticket_id WHERE ${where}`, params);
  return rows[0]?.n ?? 0;
}
