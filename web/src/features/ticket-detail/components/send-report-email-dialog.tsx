import {
  REPORT_MAX_RECIPIENTS,
  sendReportEmailBodySchema,
  TICKET_MESSAGES,
  type ReportAlreadySent,
  type SendReportEmailResponse,
  type TicketReport,
  type Ticket,
} from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextareaField } from '../../../components/ui/textarea-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, type FormCheck } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { mergeInterlocuteurs, useInterlocuteurs } from '../../../lib/lookups/get-interlocuteurs';
import type { InterlocuteurOption } from '../../../lib/lookups/lookup-types';
import { reportLinkQuery } from '../api/get-report-link';
import { useSendReportEmail, type ReportRecipient } from '../api/send-report-email';
import { reportRecipientChoices } from './report-recipients';

export const SEND_REPORT_TITLE = 'Envoyer le rapport par e-mail';
const RESEND_TITLE = 'Renvoyer le rapport ?';
const RECIPIENTS_LABEL = 'Destinataires';
const RECIPIENTS_FIELD = 'recipients';
const recipientsSchema = sendReportEmailBodySchema.shape.recipients;

/** The addresses typed (one per line, or separated by commas, semicolons or spaces), without repeats. */
function typedAddresses(text: string): string[] {
  const seen = new Set<string>();
  return text
    .split(/[\s,;]+/)
    .filter((address) => address !== '')
    .filter((address) => {
      const key = address.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * The recipients as the API wants them, checked with its own schema (same
 * French messages); an invalid address is named in the message, so the user
 * knows which of several to fix. Known people (the requester, the contacts)
 * keep their names, which the e-mail greets them with.
 */
function checkRecipients(text: string, known: readonly ReportRecipient[]): FormCheck<ReportRecipient[]> {
  const addresses = typedAddresses(text);
  const recipients = addresses.map((email) => known.find((person) => person.email.toLowerCase() === email.toLowerCase()) ?? { email, nom: '', prenom: '' });
  const check = checkForm(recipientsSchema, recipients);
  if (check.ok) return check;
  const issue = Object.keys(check.errors)[0] ?? '';
  const index = /^(\d+)\b/.exec(issue)?.[1];
  const culprit = index !== undefined ? addresses[Number(index)] : undefined;
  const message = culprit ? `${check.first} (${culprit})` : check.first;
  return { ok: false, errors: { [RECIPIENTS_FIELD]: message }, first: message };
}

function sentNotice(answer: SendReportEmailResponse | null, asked: number): string {
  if (!answer) return 'Envoi du rapport demandé.';
  const already = answer.alreadyRequested > 0 ? ` Déjà envoyé ou en cours d’envoi à ${answer.alreadyRequested === 1 ? 'une adresse' : `${answer.alreadyRequested} adresses`} : pas renvoyé.` : '';
  if (answer.queued === 0) return asked === 1 ? 'Le rapport a déjà été envoyé à cette adresse.' : 'Le rapport a déjà été envoyé à ces adresses.';
  return `Envoi du rapport demandé (${answer.queued === 1 ? 'un destinataire' : `${answer.queued} destinataires`}).${already}`;
}

/** The addresses typed, with one added (when absent) or removed. */
function toggledAddress(text: string, email: string, on: boolean): string {
  const addresses = typedAddresses(text).filter((address) => address.toLowerCase() !== email.toLowerCase());
  return (on ? [...addresses, email] : addresses).join('\n');
}

/**
 * Sends a generated report again, or to other people, from the ticket detail
 * (issue 18). Prefilled with the addresses whose last e-mail failed (so a
 * mistyped address is corrected in place), else the requester's; the
 * requester and the site's and installation's contacts are offered as boxes
 * to tick, as in the close wizard. An address that already got the report is
 * sent it again only once the user confirmed, having been told when (issue 32).
 */
export function SendReportEmailDialog({
  ticket,
  report,
  filename,
  contacts,
  onClose,
}: {
  ticket: Ticket;
  report: TicketReport;
  filename: string;
  contacts: readonly InterlocuteurOption[];
  onClose: () => void;
}) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const send = useSendReportEmail(ticket.id);
  const failed = report.emails.filter((email) => email.status === 'failed').map((email) => email.email);
  const [text, setText] = useState(() => (failed.length > 0 ? failed.join('\n') : (ticket.email ?? '')));
  // Issue 32: the addresses the server did not send to because they had it already, until the user decides.
  const [alreadySent, setAlreadySent] = useState<readonly ReportAlreadySent[]>([]);
  const siteContacts = useInterlocuteurs('site-only', ticket.site_id ?? null);
  const installationContacts = useInterlocuteurs('installation', ticket.installation_id);
  const choices = reportRecipientChoices(ticket, mergeInterlocuteurs(contacts, installationContacts.data, siteContacts.data));
  const known = choices.map((choice) => choice.recipient);
  const typed = new Set(typedAddresses(text).map((address) => address.toLowerCase()));

  const sendTo = async (recipients: ReportRecipient[], resend?: ReportAlreadySent[]) => {
    // A fresh link names the report for the server (its token is not what identifies it).
    const link = await queryClient.fetchQuery(reportLinkQuery(filename));
    return send.mutateAsync({
      recipients,
      ticketNumber: ticket.num_chrono,
      ticketInfo: { site: ticket.site_nom, installation: ticket.installation_nom },
      downloadUrl: link.downloadUrl,
      ...(resend ? { resend: resend.map((sent) => ({ email: sent.email, knownRequests: sent.knownRequests })) } : {}),
    });
  };

  // After a refused send, the message goes as soon as the addresses are fixed.
  const form = useFormSubmit({
    check: () => checkRecipients(text, known),
    save: async (recipients) => {
      const answer = await sendTo(recipients);
      if (answer && answer.alreadySent.length > 0) {
        if (answer.queued > 0) toast.show(sentNotice({ ...answer, alreadyRequested: 0 }, answer.queued), { tone: 'success' });
        setAlreadySent(answer.alreadySent);
        return;
      }
      toast.show(sentNotice(answer, recipients.length), { tone: 'success' });
      onClose();
    },
    failureMessage: (error) => errorMessage(error, TICKET_MESSAGES.reportEmailError),
  });

  const confirm = useFormSubmit({
    check: () => ({ ok: true as const, data: alreadySent }),
    save: async (confirmed) => {
      const answer = await sendTo(
        confirmed.map((sent) => ({ email: sent.email, nom: sent.nom, prenom: sent.prenom })),
        [...confirmed],
      );
      toast.show(answer && answer.queued === 0 ? 'Le rapport a déjà été renvoyé.' : `Rapport renvoyé (${confirmed.length === 1 ? 'un destinataire' : `${confirmed.length} destinataires`}).`, {
        tone: 'success',
      });
      onClose();
    },
    failureMessage: (error) => errorMessage(error, TICKET_MESSAGES.reportEmailError),
  });

  if (alreadySent.length > 0) {
    return (
      <FormDialog
        title={RESEND_TITLE}
        onClose={onClose}
        onSubmit={(event) => void confirm.submit(event)}
        failure={confirm.failure}
        busy={send.isPending}
        submitLabel="Renvoyer"
        busyLabel="Envoi..."
      >
        <ul className="stack" aria-label="Déjà envoyé">
          {alreadySent.map((sent) => (
            <li key={sent.email}>{sent.message}</li>
          ))}
        </ul>
        <p>{alreadySent.length === 1 ? 'Renvoyer le rapport à cette adresse ?' : 'Renvoyer le rapport à ces adresses ?'}</p>
      </FormDialog>
    );
  }

  return (
    <FormDialog
      title={SEND_REPORT_TITLE}
      onClose={onClose}
      onSubmit={(event) => void form.submit(event)}
      failure={form.failure}
      busy={send.isPending}
      submitLabel="Envoyer"
      busyLabel="Envoi..."
    >
      <p className="muted small">{filename}</p>
      {choices.length > 0 ? (
        <fieldset className="form-section">
          <legend>Destinataires proposés</legend>
          {choices.map((choice) => (
            <label key={choice.id} className="check-option">
              <input
                type="checkbox"
                checked={typed.has(choice.recipient.email.toLowerCase())}
                onChange={(event) => setText((current) => toggledAddress(current, choice.recipient.email, event.target.checked))}
              />
              <span>{choice.label}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <TextareaField
        label={RECIPIENTS_LABEL}
        required
        rows={3}
        value={text}
        onChange={(event) => setText(event.target.value)}
        hint="Une adresse par ligne, ou séparées par des virgules."
        error={form.errors[RECIPIENTS_FIELD]}
        autoComplete="off"
        spellCheck={false}
        maxLength={REPORT_MAX_RECIPIENTS * 255}
      />
    </FormDialog>
  );
}
