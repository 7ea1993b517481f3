import type { TicketStatus } from './ticket-constants.js';
import { TICKET_LABELS, TICKET_MESSAGES } from './ticket-messages.js';

/**
 * How a ticket reads in lists and cards (spec §4), shared by the UI and by the
 * server's open-ticket query so both order tickets the same way.
 */

export type TicketCardLabel = 'Urgent' | 'Ouvert' | 'Clos' | 'En cours';

/**
 * Spec §4, literally: "Urgent if flagged, otherwise Ouvert, Clos or En cours".
 * A flagged closed ticket still reads Urgent (its card also carries the
 * 'Fermé en urgence' icon); `intervention` reads En cours, since a technician
 * is still working on it.
 */
export function ticketCardLabel(ticket: { statut: TicketStatus; urgent: boolean }): TicketCardLabel {
  if (ticket.urgent) return TICKET_LABELS.cardUrgent;
  switch (ticket.statut) {
    case 'ouvert':
      return TICKET_LABELS.cardOpen;
    case 'clos':
      return TICKET_LABELS.cardClosed;
    case 'en_cours':
    case 'intervention':
      return TICKET_LABELS.cardInProgress;
  }
}

export interface SortableTicket {
  id: string;
  statut: TicketStatus;
  urgent: boolean;
  created_at: string;
}

/** 0 non-closed urgent, 1 ouvert, 2 other non-closed (en_cours, intervention), 3 clos (spec §4). */
export function ticketListRank(ticket: Pick<SortableTicket, 'statut' | 'urgent'>): 0 | 1 | 2 | 3 {
  if (ticket.statut === 'clos') return 3;
  if (ticket.urgent) return 0;
  return ticket.statut === 'ouvert' ? 1 : 2;
}

/**
 * List order: rank (spec §4), then newest first by created_at, so what just
 * came in is on top of its group, then id descending so equal instants still
 * order the same on every machine and on every refetch.
 */
export function compareTicketsForList(a: SortableTicket, b: SortableTicket): number {
  const byRank = ticketListRank(a) - ticketListRank(b);
  if (byRank !== 0) return byRank;
  const byNewest = Date.parse(b.created_at) - Date.parse(a.created_at);
  if (byNewest !== 0 && !Number.isNaN(byNewest)) return byNewest;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function sortTicketsForList<T extends SortableTicket>(tickets: readonly T[]): T[] {
  return [...tickets].sort(compareTicketsForList);
}

const HOUR_MS = 3_600_000;

/**
 * Hours by which a closure missed its deadline, to one decimal, or null when
 * it was on time (or had no deadline, or is not closed). Rounded up to the
 * next tenth: a ticket 2 minutes late must not read "0,0 h" of overrun.
 */
export function ticketOverrunHours(echeance: string | null, closedAt: string | null): number | null {
  if (echeance === null || closedAt === null) return null;
  const overrunMs = Date.parse(closedAt) - Date.parse(echeance);
  if (Number.isNaN(overrunMs) || overrunMs <= 0) return null;
  return Math.ceil(overrunMs / HOUR_MS * 10 - 1e-9) / 10;
}

/**
 * How late a ticket is (issue 32, item 8): not closed and past its échéance,
 * judged against `now` when the screen draws it (the échéance is stored, the
 * lateness never is). Milliseconds past the échéance, or null when the ticket
 * is closed, has no échéance, or is not late yet.
 */
export function ticketLateMs(ticket: { statut: TicketStatus; echeance: string | null }, now: Date | number): number | null {
  if (ticket.statut === 'clos' || ticket.echeance === null) return null;
  const lateMs = (typeof now === 'number' ? now : now.getTime()) - Date.parse(ticket.echeance);
  return Number.isNaN(lateMs) || lateMs <= 0 ? null : lateMs;
}

/** `2 j 5 h` from one day on, `5 h` under a day, `12 min` under an hour (rounded down: never later than it is). */
export function formatLateDuration(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} j ${hours} h`;
  if (hours > 0) return `${hours} h`;
  return `${minutes} min`;
}

/** « En retard de 2 j 5 h », or null when the ticket is not late. */
export function ticketLateLabel(ticket: { statut: TicketStatus; echeance: string | null }, now: Date | number): string | null {
  const lateMs = ticketLateMs(ticket, now);
  return lateMs === null ? null : `En retard de ${formatLateDuration(lateMs)}`;
}

export interface TicketUrgentClosure {
  /** Show the 'Fermé en urgence' warning. */
  closedUrgent: boolean;
  /** Overrun in hours to one decimal, when the deadline was exceeded. */
  overrunHours: number | null;
  label: string | null;
}

/** Spec §4: closed urgent tickets show 'Fermé en urgence', plus the overrun if the delay was exceeded. */
export function ticketUrgentClosure(ticket: {
  statut: TicketStatus;
  urgent: boolean;
  echeance: string | null;
  clos_at: string | null;
}): TicketUrgentClosure {
  if (ticket.statut !== 'clos' || !ticket.urgent) return { closedUrgent: false, overrunHours: null, label: null };
  return {
    closedUrgent: true,
    overrunHours: ticketOverrunHours(ticket.echeance, ticket.clos_at),
    label: TICKET_LABELS.closedUrgent,
  };
}

const frOneDecimal = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `1,5 h` (French decimal comma). */
export function formatOverrunHours(hours: number): string {
  return `${frOneDecimal.format(hours)} h`;
}

export type TicketQuoteState = 'none' | 'pending' | 'validated';

/**
 * Spec §4: devis=1 without a number is pending, with one it is validated.
 * The list's 'Devis non validé' icon is shown for pending quotes only: the
 * spec's "any devis other than 0" would also flag validated ones, which tells
 * the user the opposite of the truth.
 */
export function ticketQuoteState(ticket: { devis: number; numero_devis: string | null }): TicketQuoteState {
  if (ticket.devis === 0) return 'none';
  return ticket.numero_devis === null || ticket.numero_devis.trim() === '' ? 'pending' : 'validated';
}

/** Error text to show from a failed call: the server's `error` field, else the screen's fallback (spec §8). */
export function ticketErrorText(answer: unknown, fallback: string = TICKET_MESSAGES.serverError): string {
  if (typeof answer === 'object' && answer !== null && 'error' in answer) {
    const { error } = answer as { error: unknown };
    if (typeof error === 'string' && error.trim() !== '') return error;
  }
  return fallback;
}
