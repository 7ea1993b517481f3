/** The requester and the problem, as every ticket-create form sends them (staff and the public QR form). */
interface TicketRequestFields {
  nom: string;
  prenom: string;
  email: string;
  telephone: string;
  probleme: string;
}

/**
 * Appends them, trimmed. A file of its own: the public form needs this and nothing of the
 * staff ticket lists that create-manual-ticket.ts refreshes (issue 32, item 7).
 */
export function appendTicketRequest(form: FormData, input: TicketRequestFields): void {
  for (const key of ['nom', 'prenom', 'email', 'telephone', 'probleme'] as const) form.append(key, input[key].trim());
}
