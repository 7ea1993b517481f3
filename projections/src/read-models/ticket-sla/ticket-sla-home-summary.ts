import { formatClosingDuration, percentWithOneDecimal, type StatsWindow, type TicketSummaryStats } from '@fsm/contracts';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { windowBounds } from './ticket-sla-selection.js';

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
