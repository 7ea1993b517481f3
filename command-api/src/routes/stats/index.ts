import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { statsTicketsRoutes } from './stats-routes.js';
import { ticketSummaryRoute } from './ticket-summary-route.js';

/** Statistics and the home summary; all need a signed-in user. */
export async function statsRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  await statsTicketsRoutes(secured, deps);
  await ticketSummaryRoute(secured, deps);
}
