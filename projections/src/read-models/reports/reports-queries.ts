import type { ReportEmailStatus } from '@fsm/contracts';
import type { Queryable } from '../queryable.js';

export type ReportStatus = 'requested' | 'generated' | 'failed';

/** A report of one visit (closure or re-intervention). */
export interface ReportRow {
  id: string;
  ticket_id: string;
  intervention_id: string | null;
  status: ReportStatus;
  filename: string | null;
  blob_ref: string | null;
  sha256: string | null;
  bytes: number | null;
  template_id: string | null;
  template_name: string | null;
  unknown_variables: string[];
  template_fallback: string | null;
  error: string | null;
  requested_at: Date | null;
  generated_at: Date | null;
}

export type { ReportEmailStatus };

export interface ReportEmailRow {
  request_event_id: string;
  report_id: string;
  recipient_email: string;
  recipient_nom: string;
  recipient_prenom: string;
  status: ReportEmailStatus;
  message_id: string | null;
  transport: string | null;
  error: string | null;
  permanent: boolean | null;
  requested_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REPORT_COLUMNS = `id, ticket_id, intervention_id, status, filename, blob_ref, sha256, bytes, template_id, template_name,
  unknown_variables, template_fallback, error, requested_at, generated_at`;
const EMAIL_COLUMNS = `request_event_id, report_id, recipient_email, recipient_nom, recipient_prenom, status, message_id, transport,
  error, permanent, requested_at, sent_at, failed_at`;

export async function findReport(db: Queryable, reportId: string): Promise<ReportRow | null> {
  if (!GUID.test(reportId)) return null;
  const { rows } = await db.query<ReportRow>(`SELECT ${REPORT_COLUMNS} FROM rm.reports WHERE id = $1`, [reportId]);
  return rows[0] ?? null;
}

/** The generated report stored under this download name (the route checks the ticket's scope). */
export async function findReportByFilename(db: Queryable, filename: string): Promise<ReportRow | null> {
  const { rows } = await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM rm.reports WHERE filename = $1 AND status = 'generated' ORDER BY generated_at LIMIT 1`,
    [filename],
  );
  return rows[0] ?? null;
}

/** A ticket's reports, oldest visit first. */
export async function listTicketReports(db: Queryable, ticketId: string): Promise<ReportRow[]> {
  if (!GUID.test(ticketId)) return [];
  const { rows } = await db.query<ReportRow>(
    `SELECT ${REPORT_COLUMNS} FROM rm.reports WHERE ticket_id = $1 ORDER BY coalesce(requested_at, generated_at, failed_at), id`,
    [ticketId],
  );
  return rows;
}

/** Who a report was sent (or is being sent) to, in the order asked. */
export async function listReportEmails(db: Queryable, reportId: string): Promise<ReportEmailRow[]> {
  if (!GUID.test(reportId)) return [];
  const { rows } = await db.query<ReportEmailRow>(
    `SELECT ${EMAIL_COLUMNS} FROM rm.report_emails WHERE report_id = $1 ORDER BY requested_at, recipient_email, request_event_id`,
    [reportId],
  );
  return rows;
}

/**
 * The e-mails of a ticket's reports: for each report and recipient, only the
 * latest request (a failed e-mail asked again shows how the new one went).
 */
export async function listTicketReportEmails(db: Queryable, ticketId: string): Promise<ReportEmailRow[]> {
  if (!GUID.test(ticketId)) return [];
  const { rows } = await db.query<ReportEmailRow>(
    `SELECT ${EMAIL_COLUMNS} FROM (
       SELECT DISTINCT ON (e.report_id, lower(e.recipient_email)) e.*
         FROM rm.report_emails e JOIN rm.reports r ON r.id = e.report_id
        WHERE r.ticket_id = $1
        ORDER BY e.report_id, lower(e.recipient_email), e.requested_at DESC, e.last_revision DESC
     ) latest
     ORDER BY requested_at, recipient_email, request_event_id`,
    [ticketId],
  );
  return rows;
}
