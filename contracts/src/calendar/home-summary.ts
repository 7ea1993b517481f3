import { percentWithOneDecimal } from './sla-stats.js';
import {
  addCalendarDays,
  isCalendarDayString,
  parisCalendarDay,
  startOfParisDayMs,
  parisInstantMs,
  type CalendarDay,
  type CalendarInstantInput,
} from './paris-time.js';

// ─── Stats window ────────────────────────────────────────────────────────────

/** Length of the default stats window, today included. */
export const STATS_WINDOW_DAYS = 30;

export interface StatsWindow {
  /** First day, 'yyyy-MM-dd' (Europe/Paris). */
  readonly from: CalendarDay;
  /** Last day, included, 'yyyy-MM-dd' (Europe/Paris). */
  readonly to: CalendarDay;
}

/** 29 days before today through today, today being `now`'s day in Paris. */
export function defaultStatsWindow(now: CalendarInstantInput): StatsWindow {
  const to = parisCalendarDay(now);
  return { from: addCalendarDays(to, -(STATS_WINDOW_DAYS - 1)), to };
}

/** Whether an instant falls on a day of the window (both ends included, Paris days). */
export function isWithinStatsWindow(instant: CalendarInstantInput, window: StatsWindow): boolean {
  const ms = parisInstantMs(instant);
  return ms >= startOfParisDayMs(window.from) && ms < startOfParisDayMs(addCalendarDays(window.to, 1));
}

// ─── Mean closing time ───────────────────────────────────────────────────────

export interface ClosingTimeItem {
  readonly createdAt: CalendarInstantInput;
  readonly closAt?: CalendarInstantInput | null;
}

/**
 * Mean of clos_at − created_at over the closed items (those with a closing),
 * in real elapsed milliseconds (HO_stats plays no part here); null when none
 * is closed.
 */
export function meanClosingMilliseconds(items: readonly ClosingTimeItem[]): number | null {
  let sum = 0;
  let count = 0;
  for (const item of items) {
    if (item.closAt === null || item.closAt === undefined) continue;
    sum += parisInstantMs(item.closAt) - parisInstantMs(item.createdAt);
    count += 1;
  }
  return count === 0 ? null : sum / count;
}

/**
 * 'Nj Nh' ('2j 5h', '1j 0h'), hours only under a day ('5h', '0h'), or an em
 * dash '—' for null. Rounded to the nearest hour first, so 23 h 40 min is
 * '1j 0h'; a negative mean (bad data) is shown as '0h'.
 */
export function formatClosingDuration(ms: number | null): string {
  if (ms === null) return '—';
  const hours = Math.max(0, Math.round(ms / 3_600_000));
  if (hours < 24) return `${hours}h`;
  return `${Math.floor(hours / 24)}j ${hours % 24}h`;
}

/** The home summary's mean closing time, ready to show. */
export function meanClosingTimeLabel(items: readonly ClosingTimeItem[]): string {
  return formatClosingDuration(meanClosingMilliseconds(items));
}

// ─── Performance indicator ───────────────────────────────────────────────────

export interface PerformanceItem {
  readonly createdAt: CalendarInstantInput;
  readonly closAt?: CalendarInstantInput | null;
  /**
   * The deadline: an instant, a 'yyyy-MM-dd' day (closing any time that day,
   * Paris, is on time), or a number of hours after creation.
   */
  readonly echeance?: CalendarInstantInput | number | null;
}

export interface PerformanceIndicator {
  /** count / total in percent, one decimal; null when total is 0 (shown '—'). */
  readonly pct: number | null;
  /** Closed on or before their echeance. */
  readonly count: number;
  /** Closed and having an echeance. */
  readonly total: number;
}

function closedOnTime(item: PerformanceItem & { closAt: CalendarInstantInput }, echeance: CalendarInstantInput | number): boolean {
  if (typeof echeance === 'number') {
    return parisInstantMs(item.closAt) <= parisInstantMs(item.createdAt) + echeance * 3_600_000;
  }
  if (typeof echeance === 'string' && isCalendarDayString(echeance)) {
    return parisCalendarDay(item.closAt) <= echeance;
  }
  return parisInstantMs(item.closAt) <= parisInstantMs(echeance);
}

/** Share of the closed tickets having an echeance that were closed on or before it. */
export function performanceIndicator(items: readonly PerformanceItem[]): PerformanceIndicator {
  let count = 0;
  let total = 0;
  for (const item of items) {
    const { closAt, echeance } = item;
    if (closAt === null || closAt === undefined || echeance === null || echeance === undefined) continue;
    total += 1;
    if (closedOnTime({ ...item, closAt }, echeance)) count += 1;
  }
  return { pct: percentWithOneDecimal(count, total), count, total };
}
