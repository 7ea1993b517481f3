import {
  IllegalStateError,
  NotFoundError,
  TICKET_CLOCK_TOLERANCE_MS,
  TICKET_DELAI_MAX_HOURS,
  TICKET_MESSAGES as M,
  TICKET_TEXT_MAX,
  ValidationError,
  isTicketDayInRange,
  isTicketEventDay,
  isTicketInstantInRange,
  parisCalendarDay,
  ticketEcheance,
  type QuoteValidated,
  type ReinterventionRecorded,
  type TechnicianArrivedOnSite,
  type TicketClosed,
  type TicketEvent,
  type TicketOpened,
  type TicketPerson,
  type TicketReportAttached,
  type TicketTakenInCharge,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolve, initialState, type TicketState } from './ticket.js';
import { isBlank, isInstant, requireInProgress, requireRegistrationTime, requireTechnicien, requireTicket, requireTicketInstant, typedText } from './ticket-checks.js';
import { visitReport, type TicketVisitInput } from './ticket-visit.js';

/**
 * Ticket commands and the pure decisions on them. Time and ids arrive in the
 * command (the handler owns the clock and the id generator). Checks run in a
 * fixed order: the ticket exists (404), the command fits its status (409),
 * then the input (400), so a closed ticket answers "clos" whatever was typed.
 * Inputs were already parsed by the route's zod schema; the checks here keep
 * the aggregate's invariants whatever the caller (seed, import, tests), and
 * every value that reaches a read model stays within what it can hold: an
 * event the projectors cannot write would stop the read side for everyone.
 * The checks several commands share are in ticket-checks.ts and, for a
 * visit, ticket-visit.ts.
 */

// ---------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------

type OpenedData = TicketOpened['data'];

export type OpenTicket = {
  type: 'OpenTicket';
  data: Omit<OpenedData, 'echeance'> & {
    /** Manual creation with a technician chosen: the ticket is opened and taken in charge at once. */
    inCharge?: { technicien: TicketPerson; takenAt: string } | null;
    /** The handler's clock: a registration typed on the form cannot be later than it. */
    now: string;
  };
};

export type TakeTicketInCharge = {
  type: 'TakeTicketInCharge';
  data: { technicien: TicketPerson | null; takenAt: string };
};

export type CloseTicket = { type: 'CloseTicket'; data: TicketVisitInput };

export type RecordReintervention = { type: 'RecordReintervention'; data: TicketVisitInput & { interventionId: string } };

export type AttachReport = {
  type: 'AttachReport';
  /** interventionId null: the ticket's own (closure) report. */
  data: { nomRapport: string; interventionId: string | null };
};

export type ValidateQuote = {
  type: 'ValidateQuote';
  /** dateEnregistrementDevis absent: the French day of validation. */
  data: { numeroDevis: string; dateEnregistrementDevis?: string | null; validatedAt: string };
};

/** « Je suis sur site »: `technicien` is the signed-in user who tapped, `arrivedAt` the handler's clock. */
type RecordArrivalOnSite = {
  type: 'RecordArrivalOnSite';
  data: { technicien: TicketPerson | null; arrivedAt: string };
};

export type TicketCommand = OpenTicket | TakeTicketInCharge | CloseTicket | RecordReintervention | AttachReport | ValidateQuote | RecordArrivalOnSite;

// ---------------------------------------------------------------------------
// One function per command
// ---------------------------------------------------------------------------

function openTicket(command: OpenTicket, state: TicketState): TicketEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.ticketAlreadyExists);
  const { inCharge, now, ...data } = command.data;
  const requester = {
    nom: typedText(data.requester.nom, TICKET_TEXT_MAX.shortText),
    prenom: typedText(data.requester.prenom, TICKET_TEXT_MAX.shortText),
    email: typedText(data.requester.email, TICKET_TEXT_MAX.email),
    telephone: typedText(data.requester.telephone, TICKET_TEXT_MAX.telephone),
  };
  const probleme = typedText(data.probleme, TICKET_TEXT_MAX.probleme);
  if (isBlank(data.ticketId) || isBlank(data.numChrono) || isBlank(data.installation.id) || isBlank(data.agenceId)) {
    throw new ValidationError(M.requiredFields);
  }
  if (Object.values(requester).some((field) => field === '') || probleme === '') throw new ValidationError(M.requiredFields);
  if (data.delai !== null && !(Number.isFinite(data.delai) && data.delai >= 0 && data.delai <= TICKET_DELAI_MAX_HOURS)) {
    throw new ValidationError(M.invalidDelai);
  }
  const openedAt = requireRegistrationTime(data.openedAt, now);

  const { remarqueTech, ...rest } = data;
  const opened: TicketOpened = {
    type: 'TicketOpened',
    data: {
      ...rest,
      requester,
      probleme,
      openedAt,
      echeance: ticketEcheance(openedAt, data.delai),
      ...(isBlank(remarqueTech) ? {} : { remarqueTech: typedText(remarqueTech ?? '', TICKET_TEXT_MAX.remarque) }),
    },
  };
  if (inCharge === null || inCharge === undefined) return [opened];
  const takenInCharge: TicketTakenInCharge = {
    type: 'TicketTakenInCharge',
    data: { technicien: requireTechnicien(inCharge.technicien), takenAt: requireTicketInstant(inCharge.takenAt) },
  };
  return [opened, takenInCharge];
}

function takeTicketInCharge(command: TakeTicketInCharge, state: TicketState): TicketEvent[] {
  const ticket = requireTicket(state);
  if (ticket.status === 'en_cours' || ticket.status === 'intervention') throw new IllegalStateError(M.alreadyTakenInCharge);
  if (ticket.status === 'clos') throw new IllegalStateError(M.ticketClosed);
  const event: TicketTakenInCharge = {
    type: 'TicketTakenInCharge',
    data: { technicien: requireTechnicien(command.data.technicien), takenAt: requireTicketInstant(command.data.takenAt) },
  };
  return [event];
}

function closeTicket(command: CloseTicket, state: TicketState): TicketEvent[] {
  const ticket = requireInProgress(requireTicket(state));
  const event: TicketClosed = { type: 'TicketClosed', data: visitReport(command.data, ticket) };
  return [event];
}

/**
 * A re-intervention records a visit that did not settle the ticket: the
 * ticket goes (or stays) in status `intervention` until a closure.
 */
function recordReintervention(command: RecordReintervention, state: TicketState): TicketEvent[] {
  const ticket = requireInProgress(requireTicket(state));
  const { interventionId, ...visit } = command.data;
  if (isBlank(interventionId)) throw new ValidationError(M.invalidId);
  if (ticket.interventions.some((intervention) => intervention.id === interventionId)) {
    throw new IllegalStateError(M.interventionAlreadyExists);
  }
  const event: ReinterventionRecorded = {
    type: 'ReinterventionRecorded',
    data: { ...visitReport(visit, ticket), interventionId },
  };
  return [event];
}

/**
 * The arrival of the visit in progress. Tapped again (a double tap, a retry,
 * a colleague), it records nothing: the first arrival is the visit's.
 */
function recordArrivalOnSite(command: RecordArrivalOnSite, state: TicketState): TicketEvent[] {
  const ticket = requireInProgress(requireTicket(state));
  if (ticket.arrivedAt !== null) return [];
  const { technicien } = command.data;
  const event: TechnicianArrivedOnSite = {
    type: 'TechnicianArrivedOnSite',
    data: { technicien: technicien === null ? null : requireTechnicien(technicien), arrivedAt: requireTicketInstant(command.data.arrivedAt) },
  };
  return [event];
}

/**
 * The ticket's own report belongs to its closure, so it needs a closed
 * ticket; a re-intervention's report needs that intervention. Saving the same
 * name again (a retried request) changes nothing and records nothing.
 */
function attachReport(command: AttachReport, state: TicketState): TicketEvent[] {
  const ticket = requireTicket(state);
  const { interventionId } = command.data;
  let current: string | null;
  if (interventionId === null) {
    if (ticket.status !== 'clos') throw new IllegalStateError(M.reportNeedsClosedTicket);
    current = ticket.nomRapport;
  } else {
    const intervention = ticket.interventions.find((candidate) => candidate.id === interventionId);
    if (intervention === undefined) throw new NotFoundError(M.interventionNotFound);
    current = intervention.nomRapport;
  }
  const nomRapport = typedText(command.data.nomRapport, TICKET_TEXT_MAX.nomRapport);
  if (nomRapport === '') throw new ValidationError(M.nomRapportRequired);
  if (/[/\\]/.test(nomRapport)) throw new ValidationError(M.invalidNomRapport);
  if (nomRapport === current) return [];
  const event: TicketReportAttached = { type: 'TicketReportAttached', data: { nomRapport, interventionId } };
  return [event];
}

/**
 * The quote's registration date as typed: a day or an instant, in the range of
 * ticket dates, not before the day the ticket was opened (a quote for it
 * cannot predate it) and not after the validation (it has happened).
 */
function quoteRegistrationDate(given: string, openedAt: string, validatedAt: string): string {
  const date = given.trim();
  const day = isTicketEventDay(date);
  if (!day && !isInstant(date)) throw new ValidationError(M.invalidDate);
  if (day ? !isTicketDayInRange(date) : !isTicketInstantInRange(date)) throw new ValidationError(M.dateOutOfRange);
  const registeredDay = day ? date : parisCalendarDay(date);
  if (registeredDay < parisCalendarDay(openedAt)) throw new ValidationError(M.quoteDateBeforeOpening);
  const latest = Date.parse(validatedAt) + TICKET_CLOCK_TOLERANCE_MS;
  if (day ? date > parisCalendarDay(latest) : Date.parse(date) > latest) throw new ValidationError(M.quoteDateInFuture);
  return date;
}

/** Allowed in any status, closed included, once a visit asked for a quote and until it is validated. */
function validateQuote(command: ValidateQuote, state: TicketState): TicketEvent[] {
  const ticket = requireTicket(state);
  if (ticket.quote.status === 'none') throw new IllegalStateError(M.noQuotePending);
  if (ticket.quote.status === 'validated') throw new IllegalStateError(M.quoteAlreadyValidated);
  const numeroDevis = typedText(command.data.numeroDevis, TICKET_TEXT_MAX.numeroDevis);
  if (numeroDevis === '') throw new ValidationError(M.numeroDevisRequired);
  const validatedAt = requireTicketInstant(command.data.validatedAt);
  const given = command.data.dateEnregistrementDevis;
  const dateEnregistrementDevis = isBlank(given) ? parisCalendarDay(validatedAt) : quoteRegistrationDate(given ?? '', ticket.openedAt, validatedAt);
  const event: QuoteValidated = { type: 'QuoteValidated', data: { numeroDevis, dateEnregistrementDevis, validatedAt } };
  return [event];
}

export function decide(command: TicketCommand, state: TicketState): TicketEvent[] {
  switch (command.type) {
    case 'OpenTicket':
      return openTicket(command, state);
    case 'TakeTicketInCharge':
      return takeTicketInCharge(command, state);
    case 'CloseTicket':
      return closeTicket(command, state);
    case 'RecordReintervention':
      return recordReintervention(command, state);
    case 'AttachReport':
      return attachReport(command, state);
    case 'ValidateQuote':
      return validateQuote(command, state);
    case 'RecordArrivalOnSite':
      return recordArrivalOnSite(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown ticket command ${JSON.stringify(unknown)}`);
    }
  }
}

export const ticketDecider: Decider<TicketCommand, TicketState, TicketEvent> = { decide, evolve, initialState };
