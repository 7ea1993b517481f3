import {
  STATS_DEVIS_WINDOW_MS,
  countedHoursBetween,
  devisOk,
  slaClockForHoStats,
  slaDeadline,
  slaOk,
} from '@fsm/contracts';

/** HO_stats of a ticket whose trade is unknown or absent: a new trade's default (metierBodySchema). */
export const DEFAULT_HO_STATS = 0;

/**
 * The facts of one ticket the SLA figures depend on, as the SLA read model
 * stores them, plus the clock of its trade at evaluation time.
 */
export interface TicketSlaFacts {
  /** Opening (TicketOpened.openedAt): the SLA clock starts here. */
  readonly createdAt: Date;
  /** Hours allowed, fixed at opening; null when none applied. */
  readonly delai: number | null;
  /** Earliest arrival of any visit (re-interventions and the closing one). */
  readonly firstArriveAt: Date | null;
  readonly closAt: Date | null;
  /** 1 once a visit asked for a quote. */
  readonly devis: number;
  /** End of the first visit that asked for the quote: its 5-day window starts here. */
  readonly dateDevis: Date | null;
  /** The quote's registration (date_enregistrement_devis; a bare day is 00:00 Paris). */
  readonly devisRegisteredAt: Date | null;
  /** The trade's current HO_stats (0 when the ticket has no known trade). */
  readonly hoStats: 0 | 1;
}

/**
 * What the read model stores. Flags are the *settled* ones: they depend only
 * on facts. A flag that would turn false merely because time passes (no
 * arrival yet, no quote yet) is stored null with its deadline, and the queries
 * judge it against the `now` they are given — nothing ticks.
 */
export interface TicketSlaFigures {
  /** The clock used: HO_stats = 1. */
  readonly calendarTime: boolean;
  readonly slaDeadline: Date | null;
  /** Counted hours from opening to the first arrival, under the trade's clock. */
  readonly hoursToArrival: number | null;
  /** Counted hours from opening to closing, under the trade's clock. */
  readonly hoursToClosing: number | null;
  /** slaOk once the ticket was reached (arrival, else closing); null before, or without delay. */
  readonly slaOk: boolean | null;
  /** dateDevis + 5 days when a quote was asked for. */
  readonly devisDueAt: Date | null;
  /** devisOk once the quote was registered; null before, or with no quote. */
  readonly devisOk: boolean | null;
}

/** The figures of one ticket: a pure function of its facts and its trade's clock. */
export function evaluateTicketSla(facts: TicketSlaFacts): TicketSlaFigures {
  const clock = slaClockForHoStats(facts.hoStats);
  const { createdAt, delai, firstArriveAt, closAt, dateDevis, devisRegisteredAt } = facts;
  const reachedAt = firstArriveAt ?? closAt;
  const quoteAsked = facts.devis === 1 && dateDevis !== null;
  return {
    calendarTime: clock.calendarTime,
    slaDeadline: delai === null ? null : slaDeadline(createdAt, delai, clock),
    hoursToArrival: firstArriveAt === null ? null : countedHoursBetween(createdAt, firstArriveAt, clock),
    hoursToClosing: closAt === null ? null : countedHoursBetween(createdAt, closAt, clock),
    // Once reached, `now` plays no part in slaOk.
    slaOk:
      reachedAt === null
        ? null
        : slaOk({ createdAt, arriveAt: firstArriveAt, closAt, delaiHours: delai, calendarTime: clock.calendarTime, now: reachedAt }),
    devisDueAt: quoteAsked ? new Date(dateDevis.getTime() + STATS_DEVIS_WINDOW_MS) : null,
    // Once registered, `now` plays no part in devisOk. Its window starts at
    // date_devis, the start of the ticket screen's countdown (docs/sla.md §8).
    devisOk:
      quoteAsked && devisRegisteredAt !== null
        ? devisOk({ devis: 1, closAt: dateDevis, devisRegisteredAt, now: devisRegisteredAt })
        : null,
  };
}

function sameInstant(a: Date | null, b: Date | null): boolean {
  return a === null || b === null ? a === b : a.getTime() === b.getTime();
}

/** Whether storing `next` over `stored` would change the row. */
export function sameFigures(stored: TicketSlaFigures, next: TicketSlaFigures): boolean {
  return (
    stored.calendarTime === next.calendarTime &&
    sameInstant(stored.slaDeadline, next.slaDeadline) &&
    stored.hoursToArrival === next.hoursToArrival &&
    stored.hoursToClosing === next.hoursToClosing &&
    stored.slaOk === next.slaOk &&
    sameInstant(stored.devisDueAt, next.devisDueAt) &&
    stored.devisOk === next.devisOk
  );
}
