import { REPORT_MESSAGES, type TicketReport, type TicketReportEmail, type Ticket } from '@fsm/contracts';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useRetryReport } from '../api/generate-report';
import type { InterlocuteurOption } from '../../../lib/lookups/lookup-types';
import { SEND_REPORT_TITLE, SendReportEmailDialog } from './send-report-email-dialog';

function who(email: TicketReportEmail): string {
  const name = `${email.prenom} ${email.nom}`.trim();
  return name ? `${name} (${email.email})` : email.email;
}

function EmailLine({ email }: { email: TicketReportEmail }) {
  switch (email.status) {
    case 'sent':
      return (
        <li className="report-delivery__item report-delivery__item--sent">
          Envoyé à {who(email)}
          {email.sent_at ? ` le ${formatDateTime(email.sent_at)}` : ''}
        </li>
      );
    case 'requested':
      return (
        <li className="report-delivery__item report-delivery__item--pending" aria-busy="true">
          Envoi en cours à {who(email)}…
        </li>
      );
    case 'failed':
      return (
        <li className="report-delivery__item report-delivery__item--failed">
          <strong>Non envoyé à {who(email)}</strong>
          {email.failed_at ? ` (${formatDateTime(email.failed_at)})` : ''}
          {email.failure ? <span className="report-delivery__reason">{email.failure.message}</span> : null}
        </li>
      );
  }
}

/**
 * A report whose generation failed (issue 32): why, and « Relancer » for those
 * who may generate reports; a retry that fails again says why at once.
 */
function FailedReport({ ticket, report, canRetry }: { ticket: Ticket; report: TicketReport; canRetry: boolean }) {
  const retry = useRetryReport(ticket.id);
  const failure = retry.error ? errorMessage(retry.error, REPORT_MESSAGES.failed) : (report.failure ?? REPORT_MESSAGES.failed);
  return (
    <div className="report-delivery">
      <p className="report-delivery__item--failed small" role={retry.error ? 'alert' : undefined}>
        {retry.isPending ? 'Rapport en cours de génération…' : failure}
      </p>
      {canRetry ? (
        <button type="button" className="btn btn--small" disabled={retry.isPending} aria-busy={retry.isPending || undefined} onClick={() => retry.mutate(report.intervention_id !== null)}>
          Relancer
        </button>
      ) : null}
    </div>
  );
}

/**
 * A visit's report as its e-mails went (issue 18): to whom and when, still
 * being sent, or why it failed, and, for those allowed to send reports
 * (tickets.devis), « Envoyer le rapport par e-mail ».
 */
export function ReportDelivery({
  ticket,
  report,
  filename,
  contacts,
  canSend,
  canRetry = false,
}: {
  ticket: Ticket;
  report: TicketReport;
  filename: string | null;
  contacts: readonly InterlocuteurOption[];
  canSend: boolean;
  /** The closure's or the latest visit's report: POST /api/reports/{id}.pdf can ask for it again. */
  canRetry?: boolean;
}) {
  const [sending, setSending] = useState(false);
  if (report.status === 'requested') return <p className="muted small">Rapport en cours de génération…</p>;
  if (report.status === 'failed' && !filename) return <FailedReport ticket={ticket} report={report} canRetry={canSend && canRetry} />;
  return (
    <div className="report-delivery">
      {report.emails.length === 0 ? (
        <p className="muted small">Rapport non envoyé par e-mail.</p>
      ) : (
        <ul className="report-delivery__list" aria-label="Envois du rapport par e-mail">
          {report.emails.map((email) => (
            <EmailLine key={email.id} email={email} />
          ))}
        </ul>
      )}
      {canSend && filename ? (
        <button type="button" className="btn btn--small" onClick={() => setSending(true)}>
          {SEND_REPORT_TITLE}
        </button>
      ) : null}
      {sending && filename ? (
        <SendReportEmailDialog ticket={ticket} report={report} filename={filename} contacts={contacts} onClose={() => setSending(false)} />
      ) : null}
    </div>
  );
}
