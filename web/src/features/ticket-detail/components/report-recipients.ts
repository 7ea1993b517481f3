import type { Ticket } from '@fsm/contracts';
import { personName, type InterlocuteurOption } from '../../../lib/lookups/lookup-types';
import type { ReportRecipient } from '../api/send-report-email';

/** Someone a report may be e-mailed to: the requester ('demandeur') or a contact (its id). */
export interface ReportRecipientChoice {
  id: string;
  label: string;
  recipient: ReportRecipient;
}

/**
 * The people of the ticket a report may go to, as the close wizard offers them
 * and the send dialog too: the requester first, then each contact with an
 * address.
 */
export function reportRecipientChoices(ticket: Ticket, contacts: readonly InterlocuteurOption[]): ReportRecipientChoice[] {
  const choices: ReportRecipientChoice[] = [];
  if (ticket.email) {
    choices.push({ id: 'demandeur', label: `${personName(ticket)} (${ticket.email}) — demandeur`, recipient: { email: ticket.email, nom: ticket.nom, prenom: ticket.prenom } });
  }
  for (const contact of contacts) {
    if (!contact.email) continue;
    choices.push({ id: contact.id, label: `${personName(contact)} (${contact.email})`, recipient: { email: contact.email, nom: contact.nom, prenom: contact.prenom } });
  }
  return choices;
}

/** The recipients of the chosen ids ('demandeur', contact ids), in the choices' order, each address once. */
export function chosenRecipients(choices: readonly ReportRecipientChoice[], ids: readonly string[]): ReportRecipient[] {
  const byAddress = new Map<string, ReportRecipient>();
  for (const choice of choices) {
    const key = choice.recipient.email.toLowerCase();
    if (ids.includes(choice.id) && !byAddress.has(key)) byAddress.set(key, choice.recipient);
  }
  return [...byAddress.values()];
}
