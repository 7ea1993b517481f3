import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IllegalStateError,
  NotFoundError,
  REPORT_MESSAGES,
  ReportDownloadParamsSchema,
  ReportDownloadQuerySchema,
  ReportPdfBodySchema,
  ReportPdfParamsSchema,
  ReportPdfQuerySchema,
  ReportPdfResponseSchema,
  SendReportEmailBodySchema,
  TICKET_MESSAGES,
  TicketIdParamsSchema,
  TicketReportsAnswerSchema,
  UnavailableError,
  reportDownloadPath,
  reportEmailFailure,
  reportFilenameFromDownloadUrl,
  reportStreamId,
  ticketStreamId,
  type ReportEmailFailedData,
  type ReportEmailRequestedData,
  type ReportPdfBody,
  type ReportRequestedData,
  type TicketReportsAnswer,
} from '@fsm/contracts';
import { ConcurrencyError, isBlobRef, type NewEvent, type RecordedEvent } from '@fsm/eventstore';
import {
  findAgence,
  findReport,
  findReportByFilename,
  findTicket,
  listTicketReportEmails,
  listTicketReports,
  type ReportEmailRow,
  type ReportRow,
  type TicketView,
} from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, requireStaff, scopeOf, type Principal } from '../../auth/principal.js';
import { downloadLink, downloaderOf } from '../../auth/download-links.js';
import { readStreamOrEmpty } from '../../commands/execute.js';
import { actorOf } from '../actor.js';

/*
 * Reports (tickets.md §7). The PDF is rendered by the workers: this route
 * appends ReportRequested (once per visit), then waits, bounded, for the read
 * model to say the report is generated. Downloads go through a route that
 * checks the token and the ticket's scope; PDFs are never served by
 * /api/files.
 *
 * Registered among the public routes because the download link is opened by
 * the browser with `?token=` (no Authorization header): each route here
 * authenticates itself, before its body is parsed.
 */

/** How long POST /api/reports/{ticketId}.pdf waits for the workers. */
export const REPORT_WAIT_MS = 30_000;
const POLL_MS = 100;

async function ticketInScope(deps: AppDeps, principal: Principal, ticketId: string): Promise<TicketView> {
  const ticket = await findTicket(deps.pool, scopeOf(principal), ticketId, deps.clock());
  if (!ticket) throw new NotFoundError(TICKET_MESSAGES.ticketNotFound);
  return ticket;
}

/** The visit a report belongs to: the closure, or the latest re-intervention. Its event id is the report's id. */
function visitOf(history: readonly RecordedEvent[], isReintervention: boolean): { reportId: string; interventionId: string | null } {
  if (!isReintervention) {
    const closed = history.find((event) => event.type === 'TicketClosed');
    if (!closed) throw new IllegalStateError(TICKET_MESSAGES.reportNeedsClosedTicket);
    return { reportId: closed.id, interventionId: null };
  }
  const latest = [...history].reverse().find((event) => event.type === 'ReinterventionRecorded');
  const interventionId = (latest?.data as { interventionId?: unknown } | undefined)?.interventionId;
  if (!latest || typeof interventionId !== 'string') throw new NotFoundError(REPORT_MESSAGES.noReintervention);
  return { reportId: latest.id, interventionId };
}

const trimmed = (value: string | undefined) => value ?? '';

function requestedData(body: ReportPdfBody, target: { reportId: string; interventionId: string | null }, ticketId: string, at: Date): ReportRequestedData {
  return {
    reportId: target.reportId,
    ticketId,
    interventionId: target.interventionId,
    demandeur: body.demandeur ? { prenom: trimmed(body.demandeur.prenom), nom: trimmed(body.demandeur.nom), email: trimmed(body.demandeur.email) } : null,
    technicien: body.technicien ? { prenom: trimmed(body.technicien.prenom), nom: trimmed(body.technicien.nom) } : null,
    requestedAt: at.toISOString(),
  };
}

async function waitForReport(deps: AppDeps, reportId: string, timeoutMs: number): Promise<ReportRow | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await findReport(deps.pool, reportId);
    if (report && (report.status === 'generated' || report.status === 'failed')) return report;
    if (Date.now() >= deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function metadataOf(request: FastifyRequest): NewEvent['metadata'] {
  const actor = actorOf(request);
  return { userId: actor.userId, userName: actor.userName, correlationId: actor.correlationId, causationId: null };
}

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

/** A ticket's reports with, per recipient, how its latest e-mail went (GET /api/tickets/{id}/reports). */
function ticketReportsAnswer(reports: readonly ReportRow[], emails: readonly ReportEmailRow[]): TicketReportsAnswer {
  return {
    reports: reports.map((report) => ({
      id: report.id,
      intervention_id: report.intervention_id,
      status: report.status,
      filename: report.filename,
      generated_at: iso(report.generated_at),
      emails: emails
        .filter((email) => email.report_id === report.id)
        .map((email) => ({
          id: email.request_event_id,
          email: email.recipient_email,
          nom: email.recipient_nom,
          prenom: email.recipient_prenom,
          status: email.status,
          requested_at: email.requested_at.toISOString(),
          sent_at: iso(email.sent_at),
          failed_at: iso(email.failed_at),
          failure: email.status === 'failed' ? reportEmailFailure(email.error, email.permanent) : null,
        })),
    })),
  };
}

/**
 * The recipients a report may not be e-mailed to again (lower-cased): those
 * with a request still pending or sent. A recipient whose latest request
 * failed may be asked again: that is how a failed e-mail is retried.
 */
function recipientsAlreadyAsked(history: readonly RecordedEvent[]): Set<string> {
  const failed = new Set(history.filter((event) => event.type === 'ReportEmailFailed').map((event) => (event.data as ReportEmailFailedData).requestEventId));
  return new Set(
    history
      .filter((event) => event.type === 'ReportEmailRequested' && !failed.has(event.id))
      .map((event) => (event.data as ReportEmailRequestedData).recipient.email.toLowerCase()),
  );
}

export async function reportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // --- bearer-token routes -------------------------------------------------
  await app.register(async (secured) => {
    const routes = secured.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/reports/:file',
      { schema: { params: ReportPdfParamsSchema, querystring: ReportPdfQuerySchema, body: ReportPdfBodySchema } },
      async (request, reply) => {
        const principal = principalOf(request);
        const ticketId = request.params.file;
        await ticketInScope(deps, principal, ticketId);
        const target = visitOf(await readStreamOrEmpty(deps.store, ticketStreamId(ticketId)), request.query.isReintervention);

        const stream = reportStreamId(target.reportId);
        const history = await readStreamOrEmpty(deps.store, stream);
        const generated = history.some((event) => event.type === 'ReportGenerated');
        const failed = history.length > 0 && history[history.length - 1]!.type === 'ReportGenerationFailed';
        // One request per visit; another one only to retry a report whose generation failed.
        if (history.length === 0 || (failed && !generated)) {
          const event: NewEvent = { id: deps.newId(), type: 'ReportRequested', data: requestedData(request.body, target, ticketId, deps.clock()), metadata: metadataOf(request) };
          try {
            await deps.store.appendToStream(stream, [event], { expectedRevision: history.length === 0 ? 'no_stream' : history[history.length - 1]!.revision });
          } catch (error) {
            // Someone (the workers reacting to the close, a double click) got there first: same report.
            if (!(error instanceof ConcurrencyError)) throw error;
          }
        }

        const report = await waitForReport(deps, target.reportId, REPORT_WAIT_MS);
        if (report?.status === 'generated' && report.filename) {
          // The link carries a token for this one file, valid a few minutes (DOWNLOAD_TOKEN_TTL_SECONDS).
          const downloadUrl = await downloadLink(deps.tokens, principal.id, reportDownloadPath(report.filename), report.filename);
          return reply.send({ success: true, downloadUrl, filename: report.filename });
        }
        if (report?.status === 'failed') return reply.status(500).send({ error: REPORT_MESSAGES.failed, code: 'REPORT_FAILED' });
        throw new UnavailableError(REPORT_MESSAGES.notReady);
      },
    );

    // A fresh link for a report a screen shows (ticket detail, intervention history): the
    // screens never put the session token in a link. Downloading needs no tickets.devis.
    routes.get(
      '/api/reports/download/:filename/link',
      { schema: { params: ReportDownloadParamsSchema, response: { 200: ReportPdfResponseSchema } } },
      async (request, reply) => {
        const principal = principalOf(request);
        const { filename } = request.params;
        const report = await findReportByFilename(deps.pool, filename);
        // Outside the caller's agencies, a report does not exist.
        if (!report || !(await findTicket(deps.pool, scopeOf(principal), report.ticket_id, deps.clock()))) throw new NotFoundError(REPORT_MESSAGES.notFound);
        const downloadUrl = await downloadLink(deps.tokens, principal.id, reportDownloadPath(filename), filename);
        return reply.header('cache-control', 'no-store').send({ success: true as const, downloadUrl, filename });
      },
    );

    // The ticket detail's reports and their e-mails (not in the spec; issue 18). Any staff member
    // who sees the ticket sees who got its reports; sending needs tickets.devis.
    routes.get(
      '/api/tickets/:id/reports',
      { schema: { params: TicketIdParamsSchema, response: { 200: TicketReportsAnswerSchema } } },
      async (request, reply) => {
        // Staff only: ROUTE_ACCESS says so, checked before this runs.
        const principal = principalOf(request);
        const ticket = await ticketInScope(deps, principal, request.params.id);
        const [reports, emails] = await Promise.all([listTicketReports(deps.pool, ticket.id), listTicketReportEmails(deps.pool, ticket.id)]);
        return reply.header('cache-control', 'no-store').send(ticketReportsAnswer(reports, emails));
      },
    );

    routes.post('/api/reports/send-email', { schema: { body: SendReportEmailBodySchema } }, async (request, reply) => {
      const principal = principalOf(request);
      const filename = reportFilenameFromDownloadUrl(request.body.downloadUrl);
      const report = filename ? await findReportByFilename(deps.pool, filename) : null;
      if (!report) throw new NotFoundError(REPORT_MESSAGES.notFound);
      const ticket = await ticketInScope(deps, principal, report.ticket_id);
      const agence = await findAgence(deps.pool, ticket.agence_id);

      const wanted = new Map(request.body.recipients.map((recipient) => [recipient.email, recipient]));
      const stream = reportStreamId(report.id);
      for (let attempt = 0; ; attempt++) {
        const history = await readStreamOrEmpty(deps.store, stream);
        const asked = recipientsAlreadyAsked(history);
        const fresh = [...wanted.values()].filter((recipient) => !asked.has(recipient.email));
        const alreadyRequested = wanted.size - fresh.length;
        if (fresh.length === 0) return reply.send({ success: true, queued: 0, alreadyRequested });
        const at = deps.clock().toISOString();
        const events: NewEvent[] = fresh.map((recipient) => {
          const data: ReportEmailRequestedData = {
            reportId: report.id,
            ticketId: ticket.id,
            recipient: { email: recipient.email, nom: recipient.nom, prenom: recipient.prenom },
            ticketNumber: ticket.num_chrono,
            site: ticket.site_nom,
            installation: ticket.installation_nom,
            agenceNom: agence?.nom ?? null,
            requestedAt: at,
          };
          return { id: deps.newId(), type: 'ReportEmailRequested', data, metadata: metadataOf(request) };
        });
        try {
          await deps.store.appendToStream(stream, events, { expectedRevision: history.length === 0 ? 'no_stream' : history[history.length - 1]!.revision });
          return reply.send({ success: true, queued: fresh.length, alreadyRequested });
        } catch (error) {
          // The workers append outcomes to the same stream: read again and retry.
          if (!(error instanceof ConcurrencyError) || attempt >= 4) throw error;
        }
      }
    });
  });

  // --- download: the browser opens the link with ?token= ----------------------
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/reports/download/:filename',
    { schema: { params: ReportDownloadParamsSchema, querystring: ReportDownloadQuerySchema } },
    async (request, reply) => {
      const principal = await downloaderOf(deps, request.query.token, request.headers.authorization, request.params.filename);
      requireStaff(principal);
      const report = await findReportByFilename(deps.pool, request.params.filename);
      if (!report || !report.blob_ref || !isBlobRef(report.blob_ref)) throw new NotFoundError(REPORT_MESSAGES.notFound);
      // Outside the caller's agencies, a report does not exist.
      if (!(await findTicket(deps.pool, scopeOf(principal), report.ticket_id, deps.clock()))) throw new NotFoundError(REPORT_MESSAGES.notFound);
      if (!(await deps.blobs.exists(report.blob_ref))) throw new NotFoundError(REPORT_MESSAGES.notFound);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${request.params.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(createReadStream(deps.blobs.pathOf(report.blob_ref)));
    },
  );
}
