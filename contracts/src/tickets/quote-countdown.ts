import { QUOTE_GREEN_ABOVE_DAYS, QUOTE_RED_AT_OR_BELOW_DAYS, QUOTE_WINDOW_MS } from './ticket-constants.js';

/**
 * The pending quote's countdown (spec §9): a quote asked for at `date_devis`
 * should be registered within 5 days. Computed from the stored date at read
 * time, never by a ticking job.
 */

export type QuoteBarColour = 'green' | 'yellow' | 'red';

export interface QuoteCountdown {
  /** date_devis + 5 days, UTC ISO. */
  dueAt: string;
  /** Milliseconds left; negative once overdue. */
  msLeft: number;
  /** Whole days and remaining whole hours left, 0 and 0 once overdue ("2 j 5 h"). */
  daysLeft: number;
  hoursLeft: number;
  /** Share of the window already used, 0 to 1 (stays 1 once overdue). */
  elapsedFraction: number;
  /** Green above 3 days left, yellow above 1 day up to 3, red at 1 day or less. */
  colour: QuoteBarColour;
  overdue: boolean;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function quoteBarColour(msLeft: number): QuoteBarColour {
  if (msLeft > QUOTE_GREEN_ABOVE_DAYS * DAY_MS) return 'green';
  if (msLeft > QUOTE_RED_AT_OR_BELOW_DAYS * DAY_MS) return 'yellow';
  return 'red';
}

export function quoteCountdown(requestedAt: string, now: Date | number): QuoteCountdown {
  const start = Date.parse(requestedAt);
  const due = start + QUOTE_WINDOW_MS;
  const msLeft = due - new Date(now).getTime();
  const positive = Math.max(0, msLeft);
  const elapsed = Math.min(1, Math.max(0, (QUOTE_WINDOW_MS - msLeft) / QUOTE_WINDOW_MS));
  return {
    dueAt: new Date(due).toISOString(),
    msLeft,
    daysLeft: Math.floor(positive / DAY_MS),
    hoursLeft: Math.floor((positive % DAY_MS) / HOUR_MS),
    elapsedFraction: elapsed,
    colour: quoteBarColour(msLeft),
    overdue: msLeft <= 0,
  };
}
