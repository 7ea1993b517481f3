import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  interventionIdParamsSchema,
  interventionReportBodySchema,
  NotFoundError,
  TICKET_MESSAGES as M,
  ticketIdParamsSchema,
  ticketPatchBodySchema,
  ticketSchema,
  ticketVisitBodySchema,
  validateQuoteBodySchema,
} from '@fsm/contracts';
import { listInterventions } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, requirePermission, scopeOf } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import {
  handleAttachReport,
  handleCloseTicket,
  handleRecordArrivalOnSite,
  handleRecordReintervention,
  handleTakeTicketInCharge,
  handleValidateQuote,
} from '../../commands/tickets/ticket-commands.js';
import { actorOf } from '../actor.js';
import { interventionViewSchema, successAnswerSchema } from './ticket-route-schemas.js';
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
    { schema: { params: ticketIdParamsSchema, body: ticketPatchBodySchema, response: { 200: ticketSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const body = request.body;
      // Reports are generated with tickets.devis (spec §6); saving their name goes with it.
      if (body.action === 'attach_report') requirePermission(principal, 'tickets.devis');
      const ticket = await ticketInScope(deps, principal, request.params.id);
      const caller = commandCaller(deps, actorOf(request));
      if (body.action === 'take_in_charge') await handleTakeTicketInCharge(caller, { ticket, technicienId: body.technicien_id });
      else await handleAttachReport(caller, { ticket, nomRapport: body.nom_rapport, interventionId: null });
      return ticketInScope(deps, principal, ticket.id);
    },
  );

  routes.patch(
    '/api/tickets/:id/close',
    { schema: { params: ticketIdParamsSchema, body: ticketVisitBodySchema, response: { 200: ticketSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await handleCloseTicket(commandCaller(deps, actorOf(request)), { ticket, body: request.body });
      return ticketInScope(deps, principal, ticket.id);
    },
  );

  routes.post(
    '/api/tickets/:id/intervention',
    { schema: { params: ticketIdParamsSchema, body: ticketVisitBodySchema, response: { 201: ticketSchema } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await handleRecordReintervention(commandCaller(deps, actorOf(request)), { ticket, body: request.body });
      return reply.status(201).send(await ticketInScope(deps, principal, ticket.id));
    },
  );

  /**
   * « Je suis sur site » (issue 32): records the arrival of the visit in
   * progress by the server's clock; no body. Tapped again, it keeps the first
   * arrival and answers the same ticket.
   */
  routes.post(
    '/api/tickets/:id/sur-site',
    { schema: { params: ticketIdParamsSchema, response: { 200: ticketSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await handleRecordArrivalOnSite(commandCaller(deps, actorOf(request)), { ticket });
      return ticketInScope(deps, principal, ticket.id);
    },
  );

  /** The report name of one re-intervention; answers that intervention. */
  routes.patch(
    '/api/tickets/:id/interventions/:interventionId',
    {
      schema: { params: interventionIdParamsSchema, body: interventionReportBodySchema, response: { 200: interventionViewSchema } },
    },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      const { interventionId } = request.params;
      await handleAttachReport(commandCaller(deps, actorOf(request)), { ticket, nomRapport: request.body.nom_rapport, interventionId });
      const intervention = (await listInterventions(deps.pool, ticket.id, scopeOf(principal))).find((candidate) => candidate.id === interventionId);
      if (!intervention) throw new NotFoundError(M.interventionNotFound);
      return intervention;
    },
  );

  /** Quote validation `{ numero_devis, date_enregistrement_devis }` (permission tickets.devis, spec §6). */
  routes.patch(
    '/api/tickets/:id/update',
    { schema: { params: ticketIdParamsSchema, body: validateQuoteBodySchema, response: { 200: successAnswerSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      await handleValidateQuote(commandCaller(deps, actorOf(request)), { ticket, body: request.body });
      return { success: true as const };
    },
  );
}
