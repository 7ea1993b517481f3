import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  InterventionIdParamsSchema,
  InterventionReportBodySchema,
  NotFoundError,
  TICKET_MESSAGES as M,
  TicketIdParamsSchema,
  TicketPatchBodySchema,
  TicketVisitBodySchema,
  ValidateQuoteBodySchema,
} from '@fsm/contracts';
import { listInterventions } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, requirePermission, scopeOf } from '../../auth/principal.js';
import { attachReport, closeTicket, recordReintervention, takeTicketInCharge, validateQuote } from '../../commands/tickets/ticket-commands.js';
import { actorOf } from '../actor.js';
import { InterventionViewSchema, SuccessAnswerSchema, TicketViewSchema } from './ticket-route-schemas.js';
import { ticketInScope } from './ticket-route-support.js';

/**
 * Commands on a ticket (spec §7). Each answers only after `execute` returned,
 * i.e. once the read models show the change, so the re-read ticket in the
 * answer (and any GET that follows) already has it. Order of refusals: 401,
 * 403 (role, then permission: the door, ROUTE_ACCESS), 400 for a malformed body, 404 for a ticket
 * outside the caller's scope, 409 when the ticket's status forbids the
 * command (or someone changed it at the same moment), 400 for the rules the
 * decider checks on the input.
 */
export async function ticketCommandRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** Take in charge `{ statut: 'en_cours', technicien_id }`, or save the ticket's report name `{ nom_rapport }`. */
  routes.patch(
    '/api/tickets/:id',
    { schema: { params: TicketIdParamsSchema, body: TicketPatchBodySchema, response: { 200: TicketViewSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body;
      // Reports are generated with tickets.devis (spec §6); saving their name goes with it.
      if (body.action === 'attach_report') requirePermission(principal, 'tickets.devis');
      const ticket = await ticketInScope(deps, principal, request.params.id);
      if (body.action === 'take_in_charge') await takeTicketInCharge(deps, actorOf(request), ticket, body.technicien_id);
      else await attachReport(deps, actorOf(request), ticket, body.nom_rapport, null);
      return ticketInScope(deps, principal, ticket.id);
    },
  );

  routes.patch(
    '/api/tickets/:id/close',
    { schema: { params: TicketIdParamsSchema, body: TicketVisitBodySchema, response: { 200: TicketViewSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await closeTicket(deps, actorOf(request), ticket, request.body);
      return ticketInScope(deps, principal, ticket.id);
    },
  );

  routes.post(
    '/api/tickets/:id/intervention',
    { schema: { params: TicketIdParamsSchema, body: TicketVisitBodySchema, response: { 201: TicketViewSchema } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await recordReintervention(deps, actorOf(request), ticket, request.body);
      return reply.status(201).send(await ticketInScope(deps, principal, ticket.id));
    },
  );

  /** The report name of one re-intervention; answers that intervention. */
  routes.patch(
    '/api/tickets/:id/interventions/:interventionId',
    {
      schema: { params: InterventionIdParamsSchema, body: InterventionReportBodySchema, response: { 200: InterventionViewSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      const { interventionId } = request.params;
      await attachReport(deps, actorOf(request), ticket, request.body.nom_rapport, interventionId);
      const intervention = (await listInterventions(deps.pool, ticket.id, scopeOf(principal))).find((candidate) => candidate.id === interventionId);
      if (!intervention) throw new NotFoundError(M.interventionNotFound);
      return intervention;
    },
  );

  /** Quote validation `{ numero_devis, date_enregistrement_devis }` (permission tickets.devis, spec §6). */
  routes.patch(
    '/api/tickets/:id/update',
    { schema: { params: TicketIdParamsSchema, body: ValidateQuoteBodySchema, response: { 200: SuccessAnswerSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await validateQuote(deps, actorOf(request), ticket, request.body);
      return { success: true as const };
    },
  );
}
