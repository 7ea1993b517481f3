/**
 * The quote rule, stated once for the ticket aggregate (`evolve`) and the
 * read models (rm.tickets, rm.ticket_sla): the first visit asking for a quote
 * opens it, and its 5-day window starts at that visit's end (`closedAt`); a
 * later visit saying "no quote" does not withdraw it.
 */
export function visitOpensQuote(quoteOpen: boolean, visit: { devis: 0 | 1 }): boolean {
  return !quoteOpen && visit.devis === 1;
}
