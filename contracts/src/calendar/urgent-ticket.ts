import { isWithinOpeningHours, type OpeningHoursDay } from './opening-hours.js';
import type { CalendarInstantInput } from './paris-time.js';

export interface UrgentTicketInput {
  /** The installation's on-call flag (0 or 1; a boolean is accepted too). */
  readonly astreinte: 0 | 1 | boolean;
  /** When the ticket was opened (its created_at). */
  readonly openedAt: CalendarInstantInput;
  /** The agency's opening hours; null, undefined or empty means the defaults. */
  readonly horaires?: readonly OpeningHoursDay[] | null;
}

/**
 * The urgent rule for a new ticket (docs/sla.md): urgent when the installation
 * is on call (astreinte = 1) and the ticket is opened while the agency is
 * closed — evening, night, lunch break, weekend or French public holiday.
 * An installation that is not on call is never urgent.
 */
export function isUrgentTicket({ astreinte, openedAt, horaires }: UrgentTicketInput): boolean {
  const onCall = astreinte === 1 || astreinte === true;
  return onCall && !isWithinOpeningHours(openedAt, horaires);
}
