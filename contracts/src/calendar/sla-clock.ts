import { isFrenchWorkingDay } from './french-public-holidays.js';
import {
  addCalendarDays,
  parisCalendarDay,
  startOfParisDayMs,
  parisInstantMs,
  type CalendarDay,
  type CalendarInstantInput,
} from './paris-time.js';

const MS_PER_HOUR = 3_600_000;

/** What the clock needs of a Paris day: whether it counts, and the day after with its first instant. */
interface ClockDay {
  readonly working: boolean;
  readonly next: CalendarDay;
  readonly nextStartMs: number;
}

/**
 * Days already looked at: a projection rebuild walks the same few hundred
 * days for a million tickets. A day's facts never change (the holiday rules
 * and the time-zone table are fixed for a process), and a century of days
 * is about 37,000 entries, so the cache is bounded in practice.
 */
const clockDays = new Map<CalendarDay, ClockDay>();

function clockDay(day: CalendarDay): ClockDay {
  let known = clockDays.get(day);
  if (!known) {
    const next = addCalendarDays(day, 1);
    known = { working: isFrenchWorkingDay(day), next, nextStartMs: startOfParisDayMs(next) };
    clockDays.set(day, known);
  }
  return known;
}

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
    const { working, next, nextStartMs } = clockDay(day);
    if (working) counted += Math.min(nextStartMs, to) - cursor;
    cursor = nextStartMs;
    day = next;
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
    const { working, next, nextStartMs } = clockDay(day);
    if (working) {
      const available = nextStartMs - cursor;
      if (remaining < available) return new Date(cursor + remaining);
      remaining -= available;
    }
    cursor = nextStartMs;
    day = next;
  }
}
