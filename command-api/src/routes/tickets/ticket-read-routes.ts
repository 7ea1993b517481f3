import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BOUNDED_ANSWER_MESSAGES,
  closedTicketsPagedQuerySchema,
  openTicketsQuerySchema,
  ticketIdParamsSchema,
  ticketSchema,
  defaultClosedTicketsRange,
  type Ticket,
} from '@fsm/contracts';
import { STREAMED_TICKETS_PAGE_SIZE, closedTicketPages, closedTicketsPage, listInterventions, openTicketPages, openTicketsPage, type AdmitRows } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, scopeOf } from '../../auth/principal.js';
import { photoSignerOf } from '../../files/file-links.js';
import { sendJsonText } from '../../http/json-text.js';
import { jsonArrayPage, rowCeiling, sendStreamed } from '../../http/streamed-answer.js';
import { closedTicketsAnswerSchema, interventionListAnswerSchema, openTicketsAnswerSchema } from './ticket-route-schemas.js';
import { ticketInScope } from './ticket-route-support.js';

/**
 * The spec's `{ tickets }` without `limit`, streamed (http/streamed-answer.ts):
 * the same text, a page at a time. Above UNPAGED_ROWS_MAX tickets, 422 before
 * any row is read (issue 28).
 */
function sendTicketList(deps: AppDeps, reply: FastifyReply, read: (admit: AdmitRows) => AsyncGenerator<Ticket[], void, undefined>, signPhoto: (ticket: Ticket) => Ticket): Promise<FastifyReply> {
  return sendStreamed(reply, read(rowCeiling(deps.env.UNPAGED_ROWS_MAX, BOUNDED_ANSWER_MESSAGES.tooManyTickets)), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    head: () => '{"tickets":[',
    page: jsonArrayPage((ticket: Ticket) => JSON.stringify(signPhoto(ticket))),
    tail: ']}',
  });
}

/** Lists and details (spec §7). Staff only; every query is limited to the caller's scope. */
export async function ticketReadRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  // Photos go out as short-lived signed links (files/file-links.ts, issue 32 item 11).
  const signPhoto = photoSignerOf(deps);
  const signPage = <P extends { tickets: Ticket[] }>(page: P): P => ({ ...page, tickets: page.tickets.map(signPhoto) });

  /**
   * Open tickets (list and home). The list's own URL filters apply
   * (`statut`, `urgent=1`, `devis_attente=1`); like the screen, an unknown
   * value is ignored, and `statut=clos` matches nothing here (closed tickets
   * come from /api/tickets/clos). With `limit` (issue #19): one page of
   * that order, `next_cursor`, `total` and the chips' `counts`.
   * Issue 32 (opt-in): `en_retard=1` keeps the late tickets only, most late
   * first; `avec_retard=1` adds the late count to a page's `counts`.
   */
  routes.get(
    '/api/tickets',
    { schema: { querystring: openTicketsQuerySchema, response: { 200: openTicketsAnswerSchema } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const { statut, urgent, devis_attente, en_retard, avec_retard, limit, cursor } = request.query;
      if (statut === 'clos') {
        // Closed tickets are never in the open list: nothing to page through.
        return limit === undefined ? { tickets: [] } : sendJsonText(reply, { tickets: [], next_cursor: null, total: 0, counts: null });
      }
      const filters = {
        ...(statut === undefined ? {} : { statut }),
        ...(urgent === undefined ? {} : { urgent }),
        ...(devis_attente === undefined ? {} : { devis_attente }),
        ...(en_retard === undefined ? {} : { en_retard }),
      };
      if (limit !== undefined) {
        return sendJsonText(reply, signPage(await openTicketsPage(deps.pool, scopeOf(principal), deps.clock(), filters, { limit, cursor }, { lateCount: avec_retard === true })));
      }
      const now = deps.clock();
      return sendTicketList(deps, reply, (admit) => openTicketPages(deps.pool, scopeOf(principal), now, filters, STREAMED_TICKETS_PAGE_SIZE, admit), signPhoto);
    },
  );

  /**
   * Closed tickets. Without any date the last 30 days (29 days ago through
   * today, French days); with one bound only, the other side is open.
   * With `limit` (issue #19): one page, `next_cursor` and `total`.
   */
  routes.get(
    '/api/tickets/clos',
    { schema: { querystring: closedTicketsPagedQuerySchema, response: { 200: closedTicketsAnswerSchema } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const now = deps.clock();
      const { limit, cursor, ...query } = request.query;
      const range = query.date_debut === undefined && query.date_fin === undefined ? defaultClosedTicketsRange(now) : {};
      const filters = { ...query, ...range };
      if (limit !== undefined) return sendJsonText(reply, signPage(await closedTicketsPage(deps.pool, scopeOf(principal), now, filters, { limit, cursor })));
      return sendTicketList(deps, reply, (admit) => closedTicketPages(deps.pool, scopeOf(principal), now, filters, STREAMED_TICKETS_PAGE_SIZE, admit), signPhoto);
    },
  );

  routes.get(
    '/api/tickets/:id',
    { schema: { params: ticketIdParamsSchema, response: { 200: ticketSchema } } },
    async (request) => ticketInScope(deps, principalOf(request), request.params.id),
  );

  /** The ticket's re-interventions, in the order they were recorded. */
  routes.get(
    '/api/tickets/:id/interventions',
    { schema: { params: ticketIdParamsSchema, response: { 200: interventionListAnswerSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const ticket = await ticketInScope(deps, principal, request.params.id);
      return listInterventions(deps.pool, ticket.id, scopeOf(principal));
    },
  );
}
