import { visitOpensQuote, type TicketEvent, type TicketPerson, type TicketVisitReport } from '@fsm/contracts';

/**
 * The ticket aggregate's state: only what `decide` needs to accept or refuse
 * a command. Display facts (names, address, problem) live in the read models.
 * A union keyed on `status`, so a technician exists exactly in the states
 * where someone has taken the ticket in charge.
 */

type TicketQuote =
  | { status: 'none' }
  /** A visit asked for a quote; the 5-day window runs from `requestedAt`. */
  | { status: 'pending'; requestedAt: string }
  | { status: 'validated'; requestedAt: string; numeroDevis: string; dateEnregistrementDevis: string; validatedAt: string };

interface TicketIntervention {
  id: string;
  nomRapport: string | null;
}

interface TicketFacts {
  ticketId: string;
  numChrono: string;
  openedAt: string;
  urgent: boolean;
  echeance: string | null;
  quote: TicketQuote;
  /** Re-interventions in the order they were recorded. */
  interventions: readonly TicketIntervention[];
  /** The ticket's own report (its closure). */
  nomRapport: string | null;
  /** « Je suis sur site » for the visit in progress (none since the last visit was recorded): null until tapped. */
  arrivedAt: string | null;
}

export type TicketState =
  | { status: 'nonexistent' }
  | (TicketFacts & { status: 'ouvert' })
  | (TicketFacts & { status: 'en_cours'; technicien: TicketPerson })
  | (TicketFacts & { status: 'intervention'; technicien: TicketPerson })
  | (TicketFacts & { status: 'clos'; technicien: TicketPerson; closedAt: string });

export type ExistingTicketState = Exclude<TicketState, { status: 'nonexistent' }>;

export const initialState: TicketState = { status: 'nonexistent' };

/** The quote rule (visitOpensQuote); a validated quote stays validated (a ticket carries one quote number). */
function withVisitQuote(quote: TicketQuote, visit: TicketVisitReport): TicketQuote {
  return visitOpensQuote(quote.status !== 'none', visit) ? { status: 'pending', requestedAt: visit.closedAt } : quote;
}

/**
 * Applies a recorded fact. Events come from the log, where `decide` only ever
 * put valid sequences; an event that does not fit the state (impossible
 * unless the log was tampered with) leaves the state as it is rather than
 * making the stream unreadable.
 */
export function evolve(state: TicketState, event: TicketEvent): TicketState {
  switch (event.type) {
    case 'TicketOpened': {
      if (state.status !== 'nonexistent') return state;
      const { ticketId, numChrono, openedAt, urgent, echeance } = event.data;
      return { status: 'ouvert', ticketId, numChrono, openedAt, urgent, echeance, quote: { status: 'none' }, interventions: [], nomRapport: null, arrivedAt: null };
    }
    case 'TicketTakenInCharge': {
      if (state.status !== 'ouvert') return state;
      return { ...state, status: 'en_cours', technicien: event.data.technicien };
    }
    case 'ReinterventionRecorded': {
      if (state.status !== 'en_cours' && state.status !== 'intervention') return state;
      return {
        ...state,
        status: 'intervention',
        quote: withVisitQuote(state.quote, event.data),
        interventions: [...state.interventions, { id: event.data.interventionId, nomRapport: null }],
        // The next visit has its own arrival.
        arrivedAt: null,
      };
    }
    case 'TicketClosed': {
      if (state.status !== 'en_cours' && state.status !== 'intervention') return state;
      return { ...state, status: 'clos', closedAt: event.data.closedAt, quote: withVisitQuote(state.quote, event.data) };
    }
    case 'TicketReportAttached': {
      if (state.status === 'nonexistent') return state;
      const { interventionId, nomRapport } = event.data;
      if (interventionId === null) return { ...state, nomRapport };
      return {
        ...state,
        interventions: state.interventions.map((intervention) => (intervention.id === interventionId ? { ...intervention, nomRapport } : intervention)),
      };
    }
    case 'QuoteValidated': {
      if (state.status === 'nonexistent' || state.quote.status !== 'pending') return state;
      const { numeroDevis, dateEnregistrementDevis, validatedAt } = event.data;
      return { ...state, quote: { status: 'validated', requestedAt: state.quote.requestedAt, numeroDevis, dateEnregistrementDevis, validatedAt } };
    }
    case 'TechnicianArrivedOnSite': {
      if (state.status !== 'en_cours' && state.status !== 'intervention') return state;
      return { ...state, arrivedAt: event.data.arrivedAt };
    }
    default: {
      const unknown: never = event;
      throw new Error(`unknown ticket event ${JSON.stringify(unknown)}`);
    }
  }
}
