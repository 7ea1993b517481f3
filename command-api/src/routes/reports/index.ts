import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NotFoundError,
  REPORT_MESSAGES,
  reportDownloadParamsSchema,
  reportDownloadQuerySchema,
  reportPdfBodySchema,
  reportPdfParamsSchema,
  reportPdfQuerySchema,
  reportPdfResponseSchema,
  sendReportEmailBodySchema,
  ticketIdParamsSchema,
  ticketReportsAnswerSchema,
  UnavailableError,
  reportDownloadPath,
  parseRecorded,
  reportEmailFailure,
  reportEventSchema,
  reportFilenameFromDownloadUrl,
  reportGenerationFailure,
  reportGenerationReason,
  reportStreamId,
  type TicketReportsAnswer,
} from '@fsm/contracts';
import { isBlobRef, readStreamOrEmpty, type RecordedEvent } from '@fsm/eventstore';
import { findReport, findReportByFilename, findTicket, listTicketReportEmails, listTicketReports, type ReportEmailRow, type ReportRow } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, requireStaff, scopeOf } from '../../auth/principal.js';
import { downloadLink, downloaderOf } from '../../auth/download-links.js';
import { commandCaller } from '../../commands/command-context.js';
import { handleRequestReport, handleRequestReportEmails } from '../../commands/reports/report-commands.js';
import { actorOf } from '../actor.js';
import { ticketInScope } from '../tickets/ticket-route-support.js';

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
const REPORT_WAIT_MS = 30_000;
const POLL_MS = 100;

/**
 * What became of the report's latest request, read from its stream (not the read
 * model, which may still show the failure a retry has just answered): 'failed'
 * only when a ReportGenerationFailed came after the latest ReportRequested.
 */
function requestOutcome(history: readonly RecordedEvent[]): { status: 'generated' } | { status: 'failed'; error: string } | { status: 'pending' } {
  if (history.some((event) => event.type === 'ReportGenerated')) return { status: 'generated' };
  const last = history.findLast((event) => event.type === 'ReportRequested' || event.type === 'ReportGenerationFailed');
  if (last?.type !== 'ReportGenerationFailed') return { status: 'pending' };
  const failed = parseRecorded(reportEventSchema, last);
  return { status: 'failed', error: failed.type === 'ReportGenerationFailed' ? failed.data.error : '' };
}

/**
 * Waits, bounded, until the report is generated (and in the read model, which
 * the download reads) or its generation failed (issue 32: answered at once, not
 * after the 30 s); null when neither happened in time.
 */
async function waitForReport(deps: AppDeps, reportId: string, timeoutMs: number): Promise<{ status: 'generated'; report: ReportRow } | { status: 'failed'; error: string } | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = requestOutcome(await readStreamOrEmpty(deps.store, reportStreamId(reportId)));
    if (outcome.status === 'failed') return outcome;
    if (outcome.status === 'generated') {
      const report = await findReport(deps.pool, reportId);
      if (report?.status === 'generated' && report.filename) return { status: 'generated', report };
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
      failure: report.status === 'failed' ? reportGenerationFailure(report.error) : null,
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

export async function reportRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // --- bearer-token routes -------------------------------------------------
  await app.register(async (secured) => {
    const routes = secured.withTypeProvider<ZodTypeProvider>();

    routes.post(
      '/api/reports/:file',
      { schema: { params: reportPdfParamsSchema, querystring: reportPdfQuerySchema, body: reportPdfBodySchema } },
      async (request, reply) => {
        const principal = principalOf(request);
        const ticket = await ticketInScope(deps, principal, request.params.file);
        const target = await handleRequestReport(commandCaller(deps, actorOf(request)), {
          ticketId: ticket.id,
          body: request.body,
          isReintervention: request.query.isReintervention,
        });

        const outcome = await waitForReport(deps, target.reportId, REPORT_WAIT_MS);
        if (outcome?.status === 'generated' && outcome.report.filename) {
          const { filename } = outcome.report;
          // The link carries a token for this one file, valid a few minutes (DOWNLOAD_TOKEN_TTL_SECONDS).
          const downloadUrl = await downloadLink(deps.tokens, principal.id, reportDownloadPath(filename), filename);
          return reply.send({ success: true, downloadUrl, filename });
        }
        // Issue 32: a failed generation answers at once, with its reason; calling again retries it (a new job).
        if (outcome?.status === 'failed') {
          return reply.status(502).send({ error: reportGenerationFailure(outcome.error), code: 'REPORT_FAILED', reason: reportGenerationReason(outcome.error) });
        }
        throw new UnavailableError(REPORT_MESSAGES.notReady);
      },
    );

    // A fresh link for a report a screen shows (ticket detail, intervention history): the
    // screens never put the session token in a link. Downloading needs no tickets.devis.
    routes.get(
      '/api/reports/download/:filename/link',
      { schema: { params: reportDownloadParamsSchema, response: { 200: reportPdfResponseSchema } } },
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
      { schema: { params: ticketIdParamsSchema, response: { 200: ticketReportsAnswerSchema } } },
      async (request, reply) => {
        // Staff only: ROUTE_ACCESS says so, checked before this runs.
        const principal = principalOf(request);
        const ticket = await ticketInScope(deps, principal, request.params.id);
        const [reports, emails] = await Promise.all([listTicketReports(deps.pool, ticket.id), listTicketReportEmails(deps.pool, ticket.id)]);
        return reply.header('cache-control', 'no-store').send(ticketReportsAnswer(reports, emails));
      },
    );

    routes.post('/api/reports/send-email', { schema: { body: sendReportEmailBodySchema } }, async (request, reply) => {
      const principal = principalOf(request);
      const filename = reportFilenameFromDownloadUrl(request.body.downloadUrl);
      const report = filename ? await findReportByFilename(deps.pool, filename) : null;
      if (!report) throw new NotFoundError(REPORT_MESSAGES.notFound);
      const ticket = await ticketInScope(deps, principal, report.ticket_id);
      const answer = await handleRequestReportEmails(commandCaller(deps, actorOf(request)), {
        reportId: report.id,
        ticket,
        recipients: request.body.recipients,
        ...(request.body.resend ? { resend: request.body.resend } : {}),
      });
      return reply.send({ success: true, ...answer });
    });
  });

  // --- download: the browser opens the link with ?token= ----------------------
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/reports/download/:filename',
    { schema: { params: reportDownloadParamsSchema, querystring: reportDownloadQuerySchema } },
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
