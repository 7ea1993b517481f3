import { NotFoundError, TICKET_MESSAGES as M, type Ticket } from '@fsm/contracts';
import { findTicket } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { scopeOf, type Principal } from '../../auth/principal.js';
import { photoSignerOf } from '../../files/file-links.js';

/** The ticket in the caller's scope, its photo link signed; 404 'Ticket non trouvé' when unknown or in another agency. */
export async function ticketInScope(deps: AppDeps, principal: Principal, ticketId: string): Promise<Ticket> {
  const ticket = await findTicket(deps.pool, scopeOf(principal), ticketId, deps.clock());
  if (!ticket) throw new NotFoundError(M.ticketNotFound);
  return photoSignerOf(deps)(ticket);
}
