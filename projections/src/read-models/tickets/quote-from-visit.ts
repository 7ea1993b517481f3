/**
 * The quote rule of the read models, stated once: the first visit asking for
 * a quote opens it, and its 5-day window starts at that visit's end; a later
 * visit with devis = 0 does not withdraw it (the rule of the ticket
 * aggregate's `evolve`, command-api/src/domain/ticket/ticket.ts). rm.tickets
 * (closing visits and re-interventions) and rm.ticket_sla both set their
 * `devis` / `date_devis` columns with it.
 *
 * `row` is the alias of the read-model row being updated, `visit` the alias of
 * the visits' rows (columns `devis` smallint and `clos_at` timestamptz, the
 * visit's end). Within a stream round a ticket has one visit, so the row's
 * `devis` is the one before that visit, as applying the events one by one.
 */
export function quoteFromVisit(row: string, visit: string): string {
  return `devis = GREATEST(${row}.devis, ${visit}.devis),
           date_devis = CASE WHEN ${row}.devis = 0 AND ${visit}.devis = 1 THEN ${visit}.clos_at ELSE ${row}.date_devis END`;
}
