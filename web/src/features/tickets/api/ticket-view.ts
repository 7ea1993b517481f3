import { interventionSchema, ticketSchema, type Intervention, type Ticket } from '@fsm/contracts';

/*
 * Answers as the screens read them, parsed with the contracts' schemas. An
 * answer that does not match is still shown (logged), because a stale field
 * must not blank a whole board.
 */

const interventionViewSchema = interventionSchema.extend({ ordinal: ticketSchema.shape.interventions_count.optional() });
export type InterventionView = Intervention & { ordinal?: number };

function warn(what: string, error: unknown): void {
  if (import.meta.env.DEV) console.warn(`Réponse inattendue (${what})`, error);
}

/** Not even recognisably a ticket: the screen reports a load failure instead of drawing nonsense. */
export class InvalidTicketAnswerError extends Error {
  constructor() {
    super('Réponse invalide du serveur');
    this.name = 'InvalidTicketAnswerError';
  }
}

function looksLikeTicket(answer: unknown): boolean {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return false;
  const v = answer as Record<string, unknown>;
  return typeof v.id === 'string' && typeof v.num_chrono === 'string' && typeof v.statut === 'string' && typeof v.created_at === 'string';
}

export function parseTicket(answer: unknown): Ticket {
  const parsed = ticketSchema.safeParse(answer);
  if (parsed.success) return parsed.data;
  if (!looksLikeTicket(answer)) throw new InvalidTicketAnswerError();
  warn('ticket', parsed.error);
  return answer as Ticket;
}

/** The unpaged answer of the ticket lists: an array or `{ tickets }` (spec §7). */
export function isWholeTicketList(answer: unknown): boolean {
  if (Array.isArray(answer)) return true;
  return typeof answer === 'object' && answer !== null && Array.isArray((answer as { tickets?: unknown }).tickets) && !('next_cursor' in answer);
}

/** `GET /api/tickets` answers an array or `{ tickets }` (spec §7). */
export function parseTicketList(answer: unknown): Ticket[] {
  const list =
    Array.isArray(answer)
      ? answer
      : typeof answer === 'object' && answer !== null && Array.isArray((answer as { tickets?: unknown }).tickets)
        ? (answer as { tickets: unknown[] }).tickets
        : [];
  return list.filter(looksLikeTicket).map(parseTicket);
}

export function parseInterventions(answer: unknown): InterventionView[] {
  const list =
    Array.isArray(answer)
      ? answer
      : typeof answer === 'object' && answer !== null && Array.isArray((answer as { interventions?: unknown }).interventions)
        ? (answer as { interventions: unknown[] }).interventions
        : [];
  return list.map((item) => {
    const parsed = interventionViewSchema.safeParse(item);
    if (parsed.success) return parsed.data;
    warn('intervention', parsed.error);
    return item as InterventionView;
  });
}
