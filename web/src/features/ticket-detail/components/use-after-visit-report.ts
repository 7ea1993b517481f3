import { TICKET_MESSAGES, type Ticket } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import type { InterlocuteurOption, UtilisateurOption } from '../../../lib/lookups/lookup-types';
import { ticketKeys } from '../../tickets/api/ticket-keys';
import { getInterventions } from '../api/get-interventions';
import { generateReport, ReportError, type GeneratedReport } from '../api/generate-report';
import { saveInterventionReportName, saveTicketReportName } from '../api/save-report-name';
import { sendReportEmail, type ReportRecipient } from '../api/send-report-email';
import type { VisitDraft } from '../visit-draft';
import { chosenRecipients, reportRecipientChoices } from './report-recipients';

export interface ReportState {
  status: 'idle' | 'working' | 'done' | 'error';
  message?: string;
  report?: GeneratedReport;
  /** The generation failed or is not finished: « Relancer » asks for it again (issue 32). */
  canRetry?: boolean;
}

export interface EmailState {
  status: 'idle' | 'working' | 'sent' | 'failed' | 'error';
  sentTo?: string[];
}

interface AfterVisitOptions {
  ticket: Ticket;
  technicians: readonly UtilisateurOption[];
  contacts: readonly InterlocuteurOption[];
  /** tickets.devis: generate the report, save its name, e-mail it. */
  canReport: boolean;
}

/**
 * The saga after a recorded visit: the report is generated, its name saved on
 * the ticket (closure) or on the latest intervention, the ticket reloaded, and
 * the report e-mailed. Only the report's own failure is shown (spec §8).
 */
export function useAfterVisitReport({ ticket, technicians, contacts, canReport }: AfterVisitOptions) {
  const [report, setReport] = useState<ReportState>({ status: 'idle' });
  const [email, setEmail] = useState<EmailState>({ status: 'idle' });
  const queryClient = useQueryClient();

  const recipientsFor = (ids: readonly string[]): ReportRecipient[] => chosenRecipients(reportRecipientChoices(ticket, contacts), ids);

  const technicianOf = (sent: VisitDraft) => {
    const chosen = technicians.find((t) => t.id === sent.technicien_id);
    return chosen
      ? { nom: chosen.nom, prenom: chosen.prenom }
      : { nom: ticket.technicien_nom ?? '', prenom: ticket.technicien_prenom ?? '' };
  };

  const emailReport = async (generated: GeneratedReport, recipients: ReportRecipient[]) => {
    await sendReportEmail({
      recipients,
      ticketNumber: ticket.num_chrono,
      ticketInfo: { site: ticket.site_nom, installation: ticket.installation_nom },
      downloadUrl: generated.downloadUrl,
    });
  };

  const [lastVisit, setLastVisit] = useState<VisitDraft | null>(null);

  const start = async (sent: VisitDraft) => {
    if (!canReport) return;
    setLastVisit(sent);
    setReport({ status: 'working' });
    let generated: GeneratedReport;
    try {
      generated = await generateReport({
        ticketId: ticket.id,
        isReintervention: sent.mode === 'reintervention',
        signature: { client: sent.signature_client, technicien: sent.signature_technicien },
        demandeur: { prenom: ticket.prenom, nom: ticket.nom, email: ticket.email },
        technicien: technicianOf(sent),
      });
    } catch (error) {
      if (error instanceof ReportError) setReport({ status: 'error', message: error.message, canRetry: error.canRetry });
      else setReport({ status: 'error', message: errorMessage(error, TICKET_MESSAGES.serverError) });
      return;
    }
    // The answer's link is fresh: the download button starts from it and renews it like any report link.
    queryClient.setQueryData(ticketKeys.reportLink(generated.filename), generated);
    setReport({ status: 'done', report: generated });

    try {
      if (sent.mode === 'close') {
        await saveTicketReportName(ticket.id, generated.filename);
      } else {
        const interventions = await getInterventions(ticket.id);
        const latest = interventions[interventions.length - 1];
        if (latest) await saveInterventionReportName(ticket.id, latest.id, generated.filename);
      }
    } catch (error) {
      console.error('Enregistrement du nom du rapport impossible', error);
    }
    try {
      await queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticket.id) });
    } catch (error) {
      console.error('Rechargement du ticket impossible', error);
    }

    const recipients = recipientsFor(sent.recipients);
    if (recipients.length === 0) return;
    setEmail({ status: 'working' });
    try {
      await emailReport(generated, recipients);
      setEmail({ status: 'sent', sentTo: recipients.map((r) => r.email) });
    } catch (error) {
      console.error('Envoi du rapport par e-mail impossible', error);
      setEmail({ status: 'failed' });
    }
  };

  const resend = async (ids: readonly string[]) => {
    if (report.status !== 'done' || !report.report) return;
    const recipients = recipientsFor(ids);
    setEmail({ status: 'working' });
    try {
      await emailReport(report.report, recipients);
      setEmail({ status: 'sent', sentTo: recipients.map((r) => r.email) });
    } catch {
      setEmail({ status: 'error' });
    }
  };

  /** « Relancer »: the same visit's report asked again, then saved and e-mailed as after the visit. */
  const retry = async () => {
    if (lastVisit && report.status === 'error') await start(lastVisit);
  };

  return { report, email, recipientsFor, start, resend, retry };
}

export type AfterVisitReport = ReturnType<typeof useAfterVisitReport>;
