import { REPORT_MAX_RECIPIENTS, sendReportEmailBodySchema, TICKET_MESSAGES, type SendReportEmailResponse, type TicketReport, type Ticket } from '@fsm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextareaField } from '../../../components/ui/textarea-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { checkForm, type FormCheck } from '../../../lib/form-errors';
import { useFormSubmit } from '../../../lib/use-form-submit';
import type { InterlocuteurOption } from '../../lookups/api/lookup-types';
import { reportLinkQuery } from '../api/get-report-link';
import { useSendReportEmail, type ReportRecipient } from '../api/send-report-email';

export const SEND_REPORT_TITLE = 'Envoyer le rapport par e-mail';
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

/** The people of the ticket an address may belong to: the requester first, then the contacts. */
function knownRecipients(ticket: Ticket, contacts: readonly InterlocuteurOption[]): ReportRecipient[] {
  const people: ReportRecipient[] = [];
  if (ticket.email) people.push({ email: ticket.email, nom: ticket.nom, prenom: ticket.prenom });
  for (const contact of contacts) if (contact.email) people.push({ email: contact.email, nom: contact.nom, prenom: contact.prenom });
  return people;
}

function sentNotice(answer: SendReportEmailResponse | null, asked: number): string {
  if (!answer) return 'Envoi du rapport demandé.';
  const already = answer.alreadyRequested > 0 ? ` Déjà envoyé ou en cours d’envoi à ${answer.alreadyRequested === 1 ? 'une adresse' : `${answer.alreadyRequested} adresses`} : pas renvoyé.` : '';
  if (answer.queued === 0) return asked === 1 ? 'Le rapport a déjà été envoyé à cette adresse.' : 'Le rapport a déjà été envoyé à ces adresses.';
  return `Envoi du rapport demandé (${answer.queued === 1 ? 'un destinataire' : `${answer.queued} destinataires`}).${already}`;
}

/**
 * Sends a generated report again, or to other people, from the ticket detail
 * (issue 18). Prefilled with the addresses whose last e-mail failed (so a
 * mistyped address is corrected in place), else the requester's.
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
  const known = knownRecipients(ticket, contacts);
  // After a refused send, the message goes as soon as the addresses are fixed.
  const form = useFormSubmit({
    check: () => checkRecipients(text, known),
    save: async (recipients) => {
      // A fresh link names the report for the server (its token is not what identifies it).
      const link = await queryClient.fetchQuery(reportLinkQuery(filename));
      const answer = await send.mutateAsync({
        recipients,
        ticketNumber: ticket.num_chrono,
        ticketInfo: { site: ticket.site_nom, installation: ticket.installation_nom },
        downloadUrl: link.downloadUrl,
      });
      toast.show(sentNotice(answer, recipients.length), { tone: 'success' });
      onClose();
    },
    failureMessage: (error) => errorMessage(error, TICKET_MESSAGES.reportEmailError),
  });

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
