import { IllegalStateError, NotFoundError, TICKET_CLOCK_TOLERANCE_MS, TICKET_MESSAGES as M, ValidationError, hasHiddenCharacters, isTicketEventInstant, isTicketInstantInRange, type TicketPerson } from '@fsm/contracts';
import type { ExistingTicketState, TicketState } from './ticket.js';

/*
 * The checks several ticket commands share (decide.ts): dates against the
 * clock, typed text, the ticket's existence (404) and status (409), the
 * technician. decide.ts calls them in its fixed order, 404 → 409 → 400.
 */

// The events' own format: an instant the projectors could not parse is never decided.
export function isInstant(value: string): boolean {
  return isTicketEventInstant(value) && !Number.isNaN(Date.parse(value));
}

function requireInstant(value: string): string {
  if (!isInstant(value)) throw new ValidationError(M.invalidDate);
  return value;
}

/** A ticket date: a real instant on a French day from 2000 through 2099 (the SLA clock and num_chrono need no more). */
export function requireTicketInstant(value: string): string {
  if (!isTicketInstantInRange(requireInstant(value))) throw new ValidationError(M.dateOutOfRange);
  return value;
}

export function laterThanClock(instant: string, now: string): boolean {
  return Date.parse(instant) > Date.parse(requireInstant(now)) + TICKET_CLOCK_TOLERANCE_MS;
}

/**
 * The registration instant of a ticket: in the range of ticket dates and not
 * ahead of the clock. Exported so the handler refuses it before it draws a
 * num_chrono or stores a photo; the decider checks it again.
 */
export function requireRegistrationTime(openedAt: string, now: string): string {
  const at = requireTicketInstant(openedAt);
  if (laterThanClock(at, now)) throw new ValidationError(M.registrationInFuture);
  return at;
}

/** A text someone typed: trimmed, bounded, without the invisible characters that make it display as something else. */
export function typedText(value: string, max: number): string {
  const text = value.trim();
  if (text.length > max) throw new ValidationError(M.textTooLong);
  if (hasHiddenCharacters(text)) throw new ValidationError(M.hiddenCharacters);
  return text;
}

export function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

export function requireTicket(state: TicketState): ExistingTicketState {
  if (state.status === 'nonexistent') throw new NotFoundError(M.ticketNotFound);
  return state;
}

export function requireTechnicien(technicien: TicketPerson | null | undefined): TicketPerson {
  if (technicien === null || technicien === undefined || isBlank(technicien.id)) throw new ValidationError(M.technicienRequired);
  return { id: technicien.id, prenom: technicien.prenom.trim(), nom: technicien.nom.trim() };
}

/** A visit can only be reported by a technician on a ticket that is in progress. */
export function requireInProgress(ticket: ExistingTicketState): Extract<ExistingTicketState, { status: 'en_cours' | 'intervention' }> {
  switch (ticket.status) {
    case 'en_cours':
    case 'intervention':
      return ticket;
    case 'ouvert':
      throw new IllegalStateError(M.notTakenInCharge);
    case 'clos':
      throw new IllegalStateError(M.ticketClosed);
  }
}
