import { REPORT_ERROR_TEXT_MAX, reportEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { domainEvent } from '../domain-event.js';

/**
 * Reports (one per technician visit) and the e-mails sent with them, so the
 * API can answer "is the PDF ready, under which name" and "who got it".
 * Guards on the stream revision make every write idempotent; no constraint
 * here can refuse what the log holds (a refused row would stall the runner).
 */
export const reportsProjector: Projector = {
  name: 'reports',
  version: 1,
  handles: ['ReportRequested', 'ReportGenerated', 'ReportGenerationFailed', 'ReportEmailRequested', 'ReportEmailed', 'ReportEmailFailed'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.reports (
      id uuid PRIMARY KEY,
      ticket_id uuid NOT NULL,
      intervention_id uuid,
      status text NOT NULL,
      filename text,
      blob_ref text,
      sha256 text,
      bytes int,
      template_id uuid,
      template_name text,
      unknown_variables jsonb NOT NULL DEFAULT '[]'::jsonb,
      template_fallback text,
      error text,
      requested_at timestamptz,
      generated_at timestamptz,
      failed_at timestamptz,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS reports_ticket ON rm.reports (ticket_id);
    CREATE INDEX IF NOT EXISTS reports_filename ON rm.reports (filename) WHERE filename IS NOT NULL;
    CREATE TABLE IF NOT EXISTS rm.report_emails (
      request_event_id uuid PRIMARY KEY,
      report_id uuid NOT NULL,
      recipient_email text NOT NULL,
      recipient_nom text NOT NULL,
      recipient_prenom text NOT NULL,
      status text NOT NULL,
      message_id text,
      transport text,
      error text,
      permanent boolean,
      requested_at timestamptz NOT NULL,
      sent_at timestamptz,
      failed_at timestamptz,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS report_emails_report ON rm.report_emails (report_id, recipient_email);`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(reportEventSchema, recorded);
    const revision = recorded.revision;
    switch (event.type) {
      case 'ReportRequested': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.reports (id, ticket_id, intervention_id, status, requested_at, last_revision)
           VALUES ($1, $2, $3, 'requested', $4, $5)
           ON CONFLICT (id) DO UPDATE SET requested_at = coalesce(rm.reports.requested_at, $4), last_revision = $5,
             -- a request after a failed generation is a retry
             status = CASE WHEN rm.reports.status = 'failed' THEN 'requested' ELSE rm.reports.status END
           WHERE rm.reports.last_revision < $5`,
          [d.reportId, d.ticketId, d.interventionId, d.requestedAt, revision],
        );
        return [d.ticketId, d.reportId];
      }
      case 'ReportGenerated': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.reports (id, ticket_id, intervention_id, status, filename, blob_ref, sha256, bytes, template_id, template_name,
                                   unknown_variables, template_fallback, generated_at, last_revision)
           VALUES ($1, $2, $3, 'generated', $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)
           ON CONFLICT (id) DO UPDATE SET status = 'generated', filename = $4, blob_ref = $5, sha256 = $6, bytes = $7, template_id = $8,
             template_name = $9, unknown_variables = $10::jsonb, template_fallback = $11, generated_at = $12, error = NULL, last_revision = $13
           WHERE rm.reports.last_revision < $13`,
          [
            d.reportId,
            d.ticketId,
            d.interventionId,
            d.filename,
            d.blobRef,
            d.sha256,
            d.bytes,
            d.templateId,
            d.templateName,
            JSON.stringify(d.unknownVariables),
            d.templateFallback,
            d.generatedAt,
            revision,
          ],
        );
        return [d.ticketId, d.reportId];
      }
      case 'ReportGenerationFailed': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.reports (id, ticket_id, intervention_id, status, error, failed_at, last_revision)
           VALUES ($1, $2, $3, 'failed', left($4, $7), $5, $6)
           ON CONFLICT (id) DO UPDATE SET
             status = CASE WHEN rm.reports.status = 'generated' THEN 'generated' ELSE 'failed' END,
             error = left($4, $7), failed_at = $5, last_revision = $6
           WHERE rm.reports.last_revision < $6`,
          [d.reportId, d.ticketId, d.interventionId, d.error, d.failedAt, revision, REPORT_ERROR_TEXT_MAX],
        );
        return [d.ticketId, d.reportId];
      }
      case 'ReportEmailRequested': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.report_emails (request_event_id, report_id, recipient_email, recipient_nom, recipient_prenom, status, requested_at, last_revision)
           VALUES ($1, $2, $3, $4, $5, 'requested', $6, $7)
           ON CONFLICT (request_event_id) DO NOTHING`,
          [recorded.id, d.reportId, d.recipient.email, d.recipient.nom, d.recipient.prenom, d.requestedAt, revision],
        );
        return [d.ticketId, d.reportId];
      }
      case 'ReportEmailed': {
        const d = event.data;
        await tx.query(
          `UPDATE rm.report_emails SET status = 'sent', message_id = $2, transport = $3, sent_at = $4, error = NULL, permanent = NULL, last_revision = $5
           WHERE request_event_id = $1 AND last_revision < $5`,
          [d.requestEventId, d.messageId, d.transport, d.sentAt, revision],
        );
        return [d.reportId];
      }
      case 'ReportEmailFailed': {
        const d = event.data;
        await tx.query(
          `UPDATE rm.report_emails SET status = CASE WHEN status = 'sent' THEN 'sent' ELSE 'failed' END,
             error = left($2, $6), permanent = $3, failed_at = $4, last_revision = $5
           WHERE request_event_id = $1 AND last_revision < $5`,
          [d.requestEventId, d.error, d.permanent, d.failedAt, revision, REPORT_ERROR_TEXT_MAX],
        );
        return [d.reportId];
      }
    }
  }),
};
