import { TICKET_MESSAGES } from '@fsm/contracts';
import { Banner } from '../../../components/ui/banner';
import { ReportLink } from './report-link';
import type { AfterVisitReport } from './use-after-visit-report';

/** The done screen's report: generating, its download, its e-mail and a second try when the e-mail failed. */
export function AfterVisitReportPanel({ saga, recipientIds }: { saga: AfterVisitReport; recipientIds: readonly string[] }) {
  const { report, email } = saga;
  return (
    <section className="stack" aria-label="Rapport d’intervention">
      {report.status === 'working' ? (
        <p role="status" className="muted">
          Génération du rapport…
        </p>
      ) : null}
      {report.status === 'error' ? <Banner tone="error">{report.message}</Banner> : null}
      {report.status === 'error' && report.canRetry ? (
        <p>
          <button type="button" className="btn" onClick={() => void saga.retry()}>
            Relancer
          </button>
        </p>
      ) : null}
      {report.status === 'done' && report.report ? (
        <>
          <p>
            <ReportLink className="btn btn--primary" filename={report.report.filename} download>
              Télécharger le rapport
            </ReportLink>
          </p>
          {email.status === 'working' ? (
            <p role="status" className="muted">
              Envoi du rapport par e-mail…
            </p>
          ) : null}
          {email.status === 'sent' ? (
            <p role="status" className="muted">
              Rapport envoyé à {email.sentTo?.join(', ')}.
            </p>
          ) : null}
          {email.status === 'error' ? <Banner tone="error">{TICKET_MESSAGES.reportEmailError}</Banner> : null}
          {(email.status === 'failed' || email.status === 'error') && saga.recipientsFor(recipientIds).length > 0 ? (
            <p>
              <button type="button" className="btn" onClick={() => void saga.resend(recipientIds)}>
                Envoyer le rapport par e-mail
              </button>
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
