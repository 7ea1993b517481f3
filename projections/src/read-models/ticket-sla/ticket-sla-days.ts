import { parisCalendarDay, type CalendarDay } from '@fsm/contracts';
import type { PoolClient } from 'pg';
import { orderedScopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import type { StatsTicketsFilters } from './ticket-sla-selection.js';

/*
 * rm.ticket_sla_days: per agency, trade and Paris day of the request, the
 * tickets, the closed ones and the flags already settled. The stats summary
 * and weekly trend, the stats total and the closed search's total add up
 * days instead of counting tickets: a year of every agency at 1M tickets is
 * ~500,000 tickets but ~3,000 day rows. rm.ticket_sla's writers keep it, in
 * the same transaction, from each row before and after their write.
 *
 * A flag that still depends on `now` (no arrival yet: judged once the
 * deadline has passed; a quote not registered yet: eligible once its window
 * has passed) is not in the days: the queries count those rows one by one
 * (`UNSETTLED`, a partial index of a few percent of the tickets).
 */

/** rm.ticket_sla rows whose flags may still change with time alone (see flagColumns in ticket-sla-selection.ts). */
export const UNSETTLED = '((sla_ok IS NULL AND sla_deadline IS NOT NULL) OR (devis_ok IS NULL AND devis_due_at IS NOT NULL))';

/** What one rm.ticket_sla row adds to its day. */
export interface DayFacts {
  agenceId: string;
  metierId: string | null;
  createdAt: Date;
  closed: boolean;
  slaOk: boolean | null;
  devisOk: boolean | null;
}

const COUNTERS = ['tickets', 'closed', 'judged', 'ok', 'devis_eligible', 'devis_ok'] as const;
type Counter = (typeof COUNTERS)[number];

interface DayDelta {
  agenceId: string;
  metierId: string | null;
  day: string;
  counts: Record<Counter, number>;
}

/** The changes of a transaction's writes to the day counts, written in one statement. */
export class DayCounts {
  private readonly deltas = new Map<string, DayDelta>();

  /** Adds (sign 1) or removes (sign -1) a row's share of its day. */
  add(sign: 1 | -1, facts: DayFacts): void {
    const day = parisCalendarDay(facts.createdAt);
    const key = `${facts.agenceId}|${facts.metierId ?? ''}|${day}`;
    let delta = this.deltas.get(key);
    if (!delta) {
      delta = { agenceId: facts.agenceId, metierId: facts.metierId, day, counts: { tickets: 0, closed: 0, judged: 0, ok: 0, devis_eligible: 0, devis_ok: 0 } };
      this.deltas.set(key, delta);
    }
    const share: Record<Counter, boolean> = {
      tickets: true,
      closed: facts.closed,
      judged: facts.slaOk !== null,
      ok: facts.slaOk === true,
      devis_eligible: facts.devisOk !== null,
      devis_ok: facts.devisOk === true,
    };
    for (const counter of COUNTERS) if (share[counter]) delta.counts[counter] += sign;
  }

  async write(tx: PoolClient): Promise<void> {
    const deltas = [...this.deltas.values()].filter((delta) => COUNTERS.some((counter) => delta.counts[counter] !== 0));
    if (deltas.length === 0) return;
    await tx.query(
      `INSERT INTO rm.ticket_sla_days AS d (agence_id, metier_id, day, ${COUNTERS.join(', ')})
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], ${COUNTERS.map((_, index) => `$${index + 4}::int[]`).join(', ')})
       ON CONFLICT (agence_id, metier_id, day) DO UPDATE SET ${COUNTERS.map((counter) => `${counter} = d.${counter} + EXCLUDED.${counter}`).join(', ')}`,
      [deltas.map((delta) => delta.agenceId), deltas.map((delta) => delta.metierId), deltas.map((delta) => delta.day), ...COUNTERS.map((counter) => deltas.map((delta) => delta.counts[counter]))],
    );
  }
}

/** The day counts of a window (whole Paris days, both included) or of any day, in scope, for an agency and a trade when given. */
export function daySelection(scope: AgenceScope, filters: { from?: CalendarDay | undefined; to?: CalendarDay | undefined; agence_id?: string | undefined; metier_id?: string | undefined }): {
  where: string;
  params: unknown[];
} {
  const params: unknown[] = [];
  let where = 'true';
  if (filters.from !== undefined) {
    params.push(filters.from);
    where += ` AND d.day >= $${params.length}::date`;
  }
  if (filters.to !== undefined) {
    params.push(filters.to);
    where += ` AND d.day <= $${params.length}::date`;
  }
  where += orderedScopeClause(scope, 'd.agence_id', params);
  for (const column of ['agence_id', 'metier_id'] as const) {
    const value = filters[column];
    if (value === undefined) continue;
    params.push(value);
    where += ` AND d.${column} = $${params.length}::uuid`;
  }
  return { where, params };
}

/** The tickets a Statistiques window and its filters hold, from the day counts (its pages' total, the streamed answer's and the inline CSV's ceiling). */
export async function statsTotal(db: Queryable, scope: AgenceScope, filters: StatsTicketsFilters): Promise<number> {
  const days = daySelection(scope, filters);
  const { rows } = await db.query<{ total: number }>(`SELECT coalesce(sum(d.tickets), 0)::int AS total FROM rm.ticket_sla_days d WHERE ${days.where}`, days.params);
  return rows[0]?.total ?? 0;
}

/**
 * How many closed tickets a closed search holds, from the day counts, when
 * its filters are the request days, the scope and the trade only (null
 * otherwise: a client, site, installation, technician or pending-quote
 * filter narrows to few enough tickets for their own index). A closed ticket
 * is one whose closing visit is recorded (rm.ticket_sla.clos_at), as
 * rm.tickets' statut 'clos' (both written from TicketClosed by the same runner).
 */
export async function closedTicketsTotalFromDays(
  db: Queryable,
  scope: AgenceScope,
  filters: { date_debut?: string | undefined; date_fin?: string | undefined; metier_id?: string | undefined; client_id?: string | undefined; site_id?: string | undefined; installation_id?: string | undefined; technicien_id?: string | undefined; devis_attente?: boolean | undefined },
): Promise<number | null> {
  if (filters.client_id !== undefined || filters.site_id !== undefined || filters.installation_id !== undefined || filters.technicien_id !== undefined || filters.devis_attente === true) return null;
  const days = daySelection(scope, { from: filters.date_debut, to: filters.date_fin, metier_id: filters.metier_id });
  const { rows } = await db.query<{ total: number }>(`SELECT coalesce(sum(d.closed), 0)::int AS total FROM rm.ticket_sla_days d WHERE ${days.where}`, days.params);
  return rows[0]?.total ?? 0;
}
