import type { FastifyRequest } from 'fastify';
import { NotFoundError, TICKET_MESSAGES as M } from '@fsm/contracts';
import { findTicket, type TicketView } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, requirePermission, requireStaff, scopeOf, type Principal } from '../../auth/principal.js';

/**
 * Route-level `onRequest` guard: ticket lists, details and commands are for
 * staff; télésurveillance accounts only create tickets (spec §6). Running it
 * before validation makes a forbidden caller get 403 whatever it sent.
 */
export async function staffOnly(request: FastifyRequest): Promise<void> {
  requireStaff(principalOf(request));
}

/** Route-level guard of the quote and report actions: permission tickets.devis (spec §6). */
export async function quoteHoldersOnly(request: FastifyRequest): Promise<void> {
  requirePermission(principalOf(request), 'tickets.devis');
}

/** The ticket in the caller's scope; 404 'Ticket non trouvé' when unknown or in another agency. */
export async function ticketInScope(deps: AppDeps, principal: Principal, ticketId: string): Promise<TicketView> {
  const ticket = await findTicket(deps.pool, scopeOf(principal), ticketId, deps.clock());
  if (!ticket) throw new NotFoundError(M.ticketNotFound);
  return ticket;
}
