import {
  TICKET_ARRIVAL_STATES,
  TICKET_DEFAULT_TRAVEL_TIME,
  TICKET_DEPARTURE_STATES,
  TICKET_MESSAGES as M,
  TICKET_TEXT_MAX,
  TICKET_TRAVEL_TIME_PATTERN,
  ValidationError,
  type TicketArrivalState,
  type TicketDepartureState,
  type TicketPerson,
  type TicketVisitReport,
} from '@fsm/contracts';
import { isBlank, laterThanClock, requireTechnicien, requireTicketInstant, typedText } from './ticket-checks.js';
import type { ExistingTicketState } from './ticket.js';

/*
 * A technician's visit (a closure or a re-intervention, decide.ts): the
 * wizard's input and the checks that make it the events' visit report.
 */

/** A technician's visit as typed in the wizard; validated here, hence the loose field types. */
export interface TicketVisitInput {
  constatTech: string;
  remarqueTech?: string | null;
  devis: number;
  arriveAt: string;
  /** End of the visit (`date_cloture`). */
  closedAt: string;
  etatArrivee: string;
  etatDepart: string;
  /** `HH:mm`; absent or empty means 00:00. */
  tempsTrajet?: string | null;
  /** File-store references of the stored PNG signatures. */
  signatureClient: string | null;
  signatureTechnicien: string | null;
  /** Absent: the technician in charge did the visit. */
  technicien?: TicketPerson | null;
  /** Who signed for the client and in which role; blank: the requester. */
  signataireNom?: string | null;
  signataireQualite?: string | null;
  /** The signed-in user recording the visit (who drew the technician's signature); absent for a caller without a user (seed, import). */
  auteur?: TicketPerson | null;
  /** The handler's clock: a visit typed in the wizard cannot end later than it. */
  now: string;
}

/**
 * A visit's arrival and end: in the range, in order, not ahead of the clock,
 * and not before the ticket was opened. `datetime-local` fields have minute
 * precision, so an arrival typed in the very minute of the opening is on
 * time. Exported so the handler refuses a visit before it stores the
 * signatures; the decider checks it again against the ticket's own opening.
 */
export function requireVisitTimes(visit: { arriveAt: string; closedAt: string }, openedAt: string, now: string): { arriveAt: string; closedAt: string } {
  const arriveAt = requireTicketInstant(visit.arriveAt);
  const closedAt = requireTicketInstant(visit.closedAt);
  if (Date.parse(arriveAt) > Date.parse(closedAt)) throw new ValidationError(M.arrivalAfterClosure);
  if (laterThanClock(closedAt, now)) throw new ValidationError(M.visitInFuture);
  const openingMinute = Math.floor(Date.parse(openedAt) / 60_000) * 60_000;
  if (Date.parse(arriveAt) < openingMinute) throw new ValidationError(M.visitBeforeOpening);
  return { arriveAt, closedAt };
}

function isArrivalState(value: string): value is TicketArrivalState {
  return (TICKET_ARRIVAL_STATES as readonly string[]).includes(value);
}

function isDepartureState(value: string): value is TicketDepartureState {
  return (TICKET_DEPARTURE_STATES as readonly string[]).includes(value);
}

export function visitReport(input: TicketVisitInput, ticket: ExistingTicketState & { technicien: TicketPerson }): TicketVisitReport {
  const constatTech = typedText(input.constatTech, TICKET_TEXT_MAX.constat);
  if (constatTech === '') throw new ValidationError(M.constatRequired);
  if (!isArrivalState(input.etatArrivee)) throw new ValidationError(M.invalidArrivalState);
  if (!isDepartureState(input.etatDepart)) throw new ValidationError(M.invalidDepartureState);
  const tempsTrajet = isBlank(input.tempsTrajet) ? TICKET_DEFAULT_TRAVEL_TIME : (input.tempsTrajet ?? '').trim();
  if (!TICKET_TRAVEL_TIME_PATTERN.test(tempsTrajet)) throw new ValidationError(M.invalidTravelTime);
  if (isBlank(input.signatureClient)) throw new ValidationError(M.signatureClientRequired);
  if (isBlank(input.signatureTechnicien)) throw new ValidationError(M.signatureTechnicienRequired);
  if (input.devis !== 0 && input.devis !== 1) throw new ValidationError(M.invalidDevis);
  const { arriveAt, closedAt } = requireVisitTimes(input, ticket.openedAt, input.now);
  const signataireNom = typedText(input.signataireNom ?? '', TICKET_TEXT_MAX.shortText);
  const signataireQualite = typedText(input.signataireQualite ?? '', TICKET_TEXT_MAX.shortText);
  return {
    constatTech,
    remarqueTech: typedText(input.remarqueTech ?? '', TICKET_TEXT_MAX.remarque),
    devis: input.devis,
    arriveAt,
    closedAt,
    etatArrivee: input.etatArrivee,
    etatDepart: input.etatDepart,
    tempsTrajet,
    signatureClient: (input.signatureClient ?? '').trim(),
    signatureTechnicien: (input.signatureTechnicien ?? '').trim(),
    technicien: input.technicien === null || input.technicien === undefined ? ticket.technicien : requireTechnicien(input.technicien),
    // Left out when blank rather than recorded empty: the event then reads as one written before these fields existed.
    ...(signataireNom === '' ? {} : { signataireNom }),
    ...(signataireQualite === '' ? {} : { signataireQualite }),
    ...(input.auteur === null || input.auteur === undefined ? {} : { auteur: requireTechnicien(input.auteur) }),
  };
}
