import { isFrenchPublicHoliday } from './french-public-holidays.js';
import {
  isoDayOfWeek,
  parisCalendarDay,
  parisSecondsOfDay,
  parisInstantMs,
  type CalendarInstantInput,
} from './paris-time.js';

/**
 * One weekday of an agency's opening hours (management spec §3, §4, §9):
 * day_of_week 1 = Monday … 5 = Friday; each half-day's times are 'HH:mm', or
 * null when the half-day is unticked (closed).
 *
 * A structural type on purpose: the wire schema is the management side's
 * `agenceHoraireSchema`, and anything of this shape (its `AgenceHoraire`
 * included) can be passed here without conversion.
 */
export interface OpeningHoursDay {
  readonly day_of_week: number;
  readonly morning_open: string | null;
  readonly morning_close: string | null;
  readonly afternoon_open: string | null;
  readonly afternoon_close: string | null;
}

/** Monday to Friday, 08:00–12:00 and 13:30–17:30: what an agency without hours gets. */
export const DEFAULT_AGENCY_OPENING_HOURS: readonly OpeningHoursDay[] = Object.freeze(
  [1, 2, 3, 4, 5].map((day_of_week) =>
    Object.freeze({
      day_of_week,
      morning_open: '08:00',
      morning_close: '12:00',
      afternoon_open: '13:30',
      afternoon_close: '17:30',
    }),
  ),
);

// Tolerates the 'HH:mm:ss' a SQL TIME column returns; anything malformed, or a
// half-day with only one of its times, counts as closed rather than throwing in
// the middle of a request (the wire schema rejects those before they get here).
function secondsOfWallClock(value: string | null): number | null {
  if (value === null) return null;
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  return hours * 3600 + minutes * 60 + seconds;
}

function isWithinHalfDay(second: number, open: string | null, close: string | null): boolean {
  const from = secondsOfWallClock(open);
  const to = secondsOfWallClock(close);
  return from !== null && to !== null && from <= second && second < to;
}

/**
 * Whether the agency is open at `instant` (Europe/Paris wall-clock time).
 *
 * - Each half-day is the interval [open, close): open at 08:00:00, closed at
 *   12:00:00 sharp.
 * - Always false on Saturday, Sunday and French public holidays.
 * - `horaires` null, undefined or empty means the agency never set its hours:
 *   the defaults apply. Otherwise a weekday without an entry is closed.
 */
export function isWithinOpeningHours(
  instant: CalendarInstantInput,
  horaires?: readonly OpeningHoursDay[] | null,
): boolean {
  const ms = parisInstantMs(instant);
  const day = parisCalendarDay(new Date(ms));
  const dayOfWeek = isoDayOfWeek(day);
  if (dayOfWeek > 5 || isFrenchPublicHoliday(day)) return false;
  const week = horaires && horaires.length > 0 ? horaires : DEFAULT_AGENCY_OPENING_HOURS;
  const hours = week.find((entry) => entry.day_of_week === dayOfWeek);
  if (!hours) return false;
  const second = parisSecondsOfDay(new Date(ms));
  return (
    isWithinHalfDay(second, hours.morning_open, hours.morning_close) ||
    isWithinHalfDay(second, hours.afternoon_open, hours.afternoon_close)
  );
}
