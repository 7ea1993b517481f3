import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { ticketCommandRoutes } from './ticket-command-routes.js';
import { ticketCreateRoute } from './ticket-create-route.js';
import { ticketHistoryRoute } from './ticket-history-route.js';
import { ticketReadRoutes } from './ticket-read-routes.js';

export { publicTicketRoutes } from './public-ticket-routes.js';

/** Ticket routes that need a signed-in user (spec tickets.md §7; docs/tickets-api.md). */
export async function ticketRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  await ticketReadRoutes(secured, deps);
  await ticketCreateRoute(secured, deps);
  await ticketCommandRoutes(secured, deps);
  await ticketHistoryRoute(secured, deps);
}
