import { isFrenchWorkingDay } from './french-public-holidays.js';
import {
  addCalendarDays,
  parisCalendarDay,
  startOfParisDayMs,
  parisInstantMs,
  type CalendarInstantInput,
} from './paris-time.js';

const MS_PER_HOUR = 3_600_000;

/**
 * How the SLA clock runs, from the trade's HO_stats flag:
 * - calendarTime true (HO_stats = 1): every elapsed hour counts, nights,
 *   weekends and holidays included;
 * - calendarTime false (HO_stats = 0): whole Europe/Paris days that are
 *   Saturdays, Sundays or French public holidays do not count.
 */
export interface SlaClockOptions {
  readonly calendarTime: boolean;
}

/** The clock a trade (métier) uses, from its HO_stats flag (0 or 1). */
export function slaClockForHoStats(hoStats: 0 | 1 | boolean): SlaClockOptions {
  return { calendarTime: hoStats === 1 || hoStats === true };
}

/**
 * Milliseconds counted by the SLA clock between `start` and `end`.
 * Calendar time is real elapsed time (a night across a DST change lasts one
 * hour less or more). Reversed bounds give the negated count.
 */
export function countedMillisecondsBetween(
  start: CalendarInstantInput,
  end: CalendarInstantInput,
  { calendarTime }: SlaClockOptions,
): number {
  const from = parisInstantMs(start);
  const to = parisInstantMs(end);
  if (to < from) return -countedMillisecondsBetween(end, start, { calendarTime });
  if (calendarTime) return to - from;
  let counted = 0;
  let cursor = from;
  let day = parisCalendarDay(new Date(cursor));
  while (cursor < to) {
    const nextDay = addCalendarDays(day, 1);
    const nextStart = startOfParisDayMs(nextDay);
    if (isFrenchWorkingDay(day)) counted += Math.min(nextStart, to) - cursor;
    cursor = nextStart;
    day = nextDay;
  }
  return counted;
}

/** {@link countedMillisecondsBetween} in (fractional) hours. */
export function countedHoursBetween(
  start: CalendarInstantInput,
  end: CalendarInstantInput,
  clock: SlaClockOptions,
): number {
  return countedMillisecondsBetween(start, end, clock) / MS_PER_HOUR;
}

/**
 * The instant the delay runs out: the last instant at which the SLA clock has
 * counted no more than `delaiHours` since `openedAt`. An arrival at or before
 * it is on time, one after it is late — exactly when
 * `countedHoursBetween(openedAt, arrival) <= delaiHours`.
 *
 * With calendarTime false the clock is stopped on non-working days, so when
 * the delay is used up exactly at the end of a working day (or is 0 and the
 * ticket is opened on a non-working day) the deadline is 00:00 of the next
 * working day: e.g. opened Friday 20:00 with 4 h → Monday 00:00.
 */
export function slaDeadline(
  openedAt: CalendarInstantInput,
  delaiHours: number,
  { calendarTime }: SlaClockOptions,
): Date {
  if (!Number.isFinite(delaiHours) || delaiHours < 0) {
    throw new RangeError(`Délai invalide : ${delaiHours}`);
  }
  const from = parisInstantMs(openedAt);
  let remaining = Math.round(delaiHours * MS_PER_HOUR);
  if (calendarTime) return new Date(from + remaining);
  let cursor = from;
  let day = parisCalendarDay(new Date(cursor));
  for (;;) {
    const nextDay = addCalendarDays(day, 1);
    const nextStart = startOfParisDayMs(nextDay);
    if (isFrenchWorkingDay(day)) {
      const available = nextStart - cursor;
      if (remaining < available) return new Date(cursor + remaining);
      remaining -= available;
    }
    cursor = nextStart;
    day = nextDay;
  }
}
