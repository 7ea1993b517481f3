import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ticketIdParamsSchema } from '@fsm/contracts';
import type { AppDeps } from '../../app-deps.js';
import { principalOf } from '../../auth/principal.js';
import { loadTicketHistory } from '../../commands/tickets/ticket-history.js';
import { ticketHistoryAnswerSchema, ticketHistoryQuerySchema } from './ticket-route-schemas.js';
import { ticketInScope } from './ticket-route-support.js';

/**
 * GET /api/tickets/{id}/history: for auditors, every event of the ticket's
 * stream in order (who, when, what) and, with `?at=<revision>`, the state
 * after that event, folded from the stream (docs/tickets-api.md). Staff in
 * the ticket's scope, like its detail.
 */
export async function ticketHistoryRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/tickets/:id/history',
    { schema: { params: ticketIdParamsSchema, querystring: ticketHistoryQuerySchema, response: { 200: ticketHistoryAnswerSchema } } },
    async (request) => {
      const ticket = await ticketInScope(deps, principalOf(request), request.params.id);
      const { snapshot, ...history } = await loadTicketHistory(deps.store, ticket.id, request.query.at);
      return { ...history, num_chrono: ticket.num_chrono, ...(snapshot === undefined ? {} : { snapshot: { ...snapshot, state: { ...snapshot.state } } }) };
    },
  );
}
