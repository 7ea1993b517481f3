import {
  IllegalStateError,
  NotFoundError,
  TICKET_ARRIVAL_STATES,
  TICKET_DEFAULT_TRAVEL_TIME,
  TICKET_DEPARTURE_STATES,
  TICKET_MESSAGES as M,
  TICKET_TRAVEL_TIME_PATTERN,
  ValidationError,
  ticketEcheance,
  ticketLocalDate,
  type QuoteValidated,
  type ReinterventionRecorded,
  type TicketArrivalState,
  type TicketClosed,
  type TicketDepartureState,
  type TicketEvent,
  type TicketOpened,
  type TicketPerson,
  type TicketReportAttached,
  type TicketTakenInCharge,
  type TicketVisitReport,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolve, initialState, type ExistingTicketState, type TicketState } from './ticket.js';

/**
 * Ticket commands and the pure decisions on them. Time and ids arrive in the
 * command (the handler owns the clock and the id generator). Checks run in a
 * fixed order: the ticket exists (404), the command fits its status (409),
 * then the input (400), so a closed ticket answers "clos" whatever was typed.
 * Inputs were already parsed by the route's zod schema; the checks here keep
 * the aggregate's invariants whatever the caller (seed, import, tests).
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
  };
};

export type TakeTicketInCharge = {
  type: 'TakeTicketInCharge';
  data: { technicien: TicketPerson | null; takenAt: string };
};

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
}

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

export type TicketCommand = OpenTicket | TakeTicketInCharge | CloseTicket | RecordReintervention | AttachReport | ValidateQuote;

// ---------------------------------------------------------------------------
// Shared checks
// ---------------------------------------------------------------------------

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isInstant(value: string): boolean {
  return ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value));
}

function isDay(value: string): boolean {
  return ISO_DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

function requireInstant(value: string): string {
  if (!isInstant(value)) throw new ValidationError(M.invalidDate);
  return value;
}

function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

function requireTicket(state: TicketState): ExistingTicketState {
  if (state.status === 'nonexistent') throw new NotFoundError(M.ticketNotFound);
  return state;
}

function requireTechnicien(technicien: TicketPerson | null | undefined): TicketPerson {
  if (technicien === null || technicien === undefined || isBlank(technicien.id)) throw new ValidationError(M.technicienRequired);
  return { id: technicien.id, prenom: technicien.prenom.trim(), nom: technicien.nom.trim() };
}

function isArrivalState(value: string): value is TicketArrivalState {
  return (TICKET_ARRIVAL_STATES as readonly string[]).includes(value);
}

function isDepartureState(value: string): value is TicketDepartureState {
  return (TICKET_DEPARTURE_STATES as readonly string[]).includes(value);
}

/** A visit can only be reported by a technician on a ticket that is in progress. */
function requireInProgress(ticket: ExistingTicketState) {
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

function visitReport(input: TicketVisitInput, technicienInCharge: TicketPerson): TicketVisitReport {
  const constatTech = input.constatTech.trim();
  if (constatTech === '') throw new ValidationError(M.constatRequired);
  if (!isArrivalState(input.etatArrivee)) throw new ValidationError(M.invalidArrivalState);
  if (!isDepartureState(input.etatDepart)) throw new ValidationError(M.invalidDepartureState);
  const tempsTrajet = isBlank(input.tempsTrajet) ? TICKET_DEFAULT_TRAVEL_TIME : (input.tempsTrajet ?? '').trim();
  if (!TICKET_TRAVEL_TIME_PATTERN.test(tempsTrajet)) throw new ValidationError(M.invalidTravelTime);
  if (isBlank(input.signatureClient)) throw new ValidationError(M.signatureClientRequired);
  if (isBlank(input.signatureTechnicien)) throw new ValidationError(M.signatureTechnicienRequired);
  if (input.devis !== 0 && input.devis !== 1) throw new ValidationError(M.invalidDevis);
  const arriveAt = requireInstant(input.arriveAt);
  const closedAt = requireInstant(input.closedAt);
  if (Date.parse(arriveAt) > Date.parse(closedAt)) throw new ValidationError(M.arrivalAfterClosure);
  return {
    constatTech,
    remarqueTech: (input.remarqueTech ?? '').trim(),
    devis: input.devis,
    arriveAt,
    closedAt,
    etatArrivee: input.etatArrivee,
    etatDepart: input.etatDepart,
    tempsTrajet,
    signatureClient: (input.signatureClient ?? '').trim(),
    signatureTechnicien: (input.signatureTechnicien ?? '').trim(),
    technicien: input.technicien === null || input.technicien === undefined ? technicienInCharge : requireTechnicien(input.technicien),
  };
}

// ---------------------------------------------------------------------------
// One function per command
// ---------------------------------------------------------------------------

export function openTicket(command: OpenTicket, state: TicketState): TicketEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.ticketAlreadyExists);
  const { inCharge, ...data } = command.data;
  const requester = {
    nom: data.requester.nom.trim(),
    prenom: data.requester.prenom.trim(),
    email: data.requester.email.trim(),
    telephone: data.requester.telephone.trim(),
  };
  const probleme = data.probleme.trim();
  if (isBlank(data.ticketId) || isBlank(data.numChrono) || isBlank(data.installation.id) || isBlank(data.agenceId)) {
    throw new ValidationError(M.requiredFields);
  }
  if (Object.values(requester).some((field) => field === '') || probleme === '') throw new ValidationError(M.requiredFields);
  if (data.delai !== null && !(Number.isFinite(data.delai) && data.delai >= 0)) throw new ValidationError(M.invalidDelai);
  const openedAt = requireInstant(data.openedAt);

  const { remarqueTech, ...rest } = data;
  const opened: TicketOpened = {
    type: 'TicketOpened',
    data: {
      ...rest,
      requester,
      probleme,
      openedAt,
      echeance: ticketEcheance(openedAt, data.delai),
      ...(isBlank(remarqueTech) ? {} : { remarqueTech: (remarqueTech ?? '').trim() }),
    },
  };
  if (inCharge === null || inCharge === undefined) return [opened];
  const takenInCharge: TicketTakenInCharge = {
    type: 'TicketTakenInCharge',
    data: { technicien: requireTechnicien(inCharge.technicien), takenAt: requireInstant(inCharge.takenAt) },
  };
  return [opened, takenInCharge];
}

export function takeTicketInCharge(command: TakeTicketInCharge, state: TicketState): TicketEvent[] {
  const ticket = requireTicket(state);
  if (ticket.status === 'en_cours' || ticket.status === 'intervention') throw new IllegalStateError(M.alreadyTakenInCharge);
  if (ticket.status === 'clos') throw new IllegalStateError(M.ticketClosed);
  const event: TicketTakenInCharge = {
    type: 'TicketTakenInCharge',
    data: { technicien: requireTechnicien(command.data.technicien), takenAt: requireInstant(command.data.takenAt) },
  };
  return [event];
}

export function closeTicket(command: CloseTicket, state: TicketState): TicketEvent[] {
  const ticket = requireInProgress(requireTicket(state));
  const event: TicketClosed = { type: 'TicketClosed', data: visitReport(command.data, ticket.technicien) };
  return [event];
}

/**
 * A re-intervention records a visit that did not settle the ticket: the
 * ticket goes (or stays) in status `intervention` until a closure.
 */
export function recordReintervention(command: RecordReintervention, state: TicketState): TicketEvent[] {
  const ticket = requireInProgress(requireTicket(state));
  const { interventionId, ...visit } = command.data;
  if (isBlank(interventionId)) throw new ValidationError(M.invalidId);
  if (ticket.interventions.some((intervention) => intervention.id === interventionId)) {
    throw new IllegalStateError(M.interventionAlreadyExists);
  }
  const event: ReinterventionRecorded = {
    type: 'ReinterventionRecorded',
    data: { ...visitReport(visit, ticket.technicien), interventionId },
  };
  return [event];
}

/**
 * The ticket's own report belongs to its closure, so it needs a closed
 * ticket; a re-intervention's report needs that intervention. Saving the same
 * name again (a retried request) changes nothing and records nothing.
 */
export function attachReport(command: AttachReport, state: TicketState): TicketEvent[] {
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
  const nomRapport = command.data.nomRapport.trim();
  if (nomRapport === '') throw new ValidationError(M.nomRapportRequired);
  if (/[/\\]/.test(nomRapport)) throw new ValidationError(M.invalidNomRapport);
  if (nomRapport === current) return [];
  const event: TicketReportAttached = { type: 'TicketReportAttached', data: { nomRapport, interventionId } };
  return [event];
}

/** Allowed in any status, closed included, once a visit asked for a quote and until it is validated. */
export function validateQuote(command: ValidateQuote, state: TicketState): TicketEvent[] {
  const ticket = requireTicket(state);
  if (ticket.quote.status === 'none') throw new IllegalStateError(M.noQuotePending);
  if (ticket.quote.status === 'validated') throw new IllegalStateError(M.quoteAlreadyValidated);
  const numeroDevis = command.data.numeroDevis.trim();
  if (numeroDevis === '') throw new ValidationError(M.numeroDevisRequired);
  const validatedAt = requireInstant(command.data.validatedAt);
  const given = command.data.dateEnregistrementDevis;
  let dateEnregistrementDevis: string;
  if (isBlank(given)) {
    dateEnregistrementDevis = ticketLocalDate(validatedAt);
  } else {
    dateEnregistrementDevis = (given ?? '').trim();
    if (!isDay(dateEnregistrementDevis) && !isInstant(dateEnregistrementDevis)) throw new ValidationError(M.invalidDate);
  }
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
    default: {
      const unknown: never = command;
      throw new Error(`unknown ticket command ${JSON.stringify(unknown)}`);
    }
  }
}

export const ticketDecider: Decider<TicketCommand, TicketState, TicketEvent> = { decide, evolve, initialState };
