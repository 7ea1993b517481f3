import { TZDate } from '@date-fns/tz';

/*
 * Paris time, the one module for it: all calendar reasoning (which day it is,
 * opening hours, holidays), every local time a user types and every date a
 * screen or a report prints happen in the agencies' time zone, whatever the
 * zone of the server or the browser. Nothing else names the zone, reads the
 * Paris day of an instant or builds a French date formatter: web, workers, API
 * and read side all come here. Browser-safe (Intl and @date-fns/tz only).
 */
export const PARIS_TIME_ZONE = 'Europe/Paris';

/**
 * An instant as the calendar helpers accept it: a `Date`, or an ISO 8601 string
 * as carried on the wire. A string without an offset ('2025-05-07T22:00:00',
 * '2025-05-07 22:00:00', '2025-05-07') is read as Europe/Paris wall-clock time,
 * never as the runtime's local time.
 */
export type CalendarInstantInput = Date | string;

/** A calendar day in Europe/Paris, written 'yyyy-MM-dd'. */
export type CalendarDay = string;

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a 'yyyy-MM-dd' string naming a real day of the Gregorian calendar. */
export function isCalendarDayString(value: string): boolean {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
}

/**
 * Turns an accepted instant into epoch milliseconds.
 * Throws a RangeError for an unparsable string or an invalid Date, so that a bad
 * value never silently becomes NaN inside a percentage.
 */
export function parisInstantMs(value: CalendarInstantInput): number {
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new RangeError('Date invalide');
    return ms;
  }
  const match = ISO_PATTERN.exec(value.trim());
  if (!match) throw new RangeError(`Date invalide : « ${value} »`);
  const [, y, mo, d, h, mi, s, frac, offset] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hours = Number(h ?? 0);
  const minutes = Number(mi ?? 0);
  const seconds = Number(s ?? 0);
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (!isCalendarDayString(`${y}-${mo}-${d}`) || hours > 23 || minutes > 59 || seconds > 59) {
    throw new RangeError(`Date invalide : « ${value} »`);
  }
  if (offset === undefined) return parisWallTimeMs(year, month, day, hours, minutes, seconds, millis);
  const utcMs = Date.UTC(year, month - 1, day, hours, minutes, seconds, millis);
  if (offset.toUpperCase() === 'Z') return utcMs;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
  return utcMs - sign * offsetMinutes * 60_000;
}

/**
 * Epoch milliseconds of a Paris wall-clock time (month 1–12). In the spring gap
 * (02:xx on the last Sunday of March) @date-fns/tz moves forward one hour, as a
 * wall clock would; in the autumn overlap it picks the second (winter-time)
 * occurrence.
 */
export function parisWallTimeMs(year: number, month: number, day: number, hours: number, minutes: number, seconds = 0, millis = 0): number {
  return new TZDate(year, month - 1, day, hours, minutes, seconds, millis, PARIS_TIME_ZONE).getTime();
}

/** The accepted instant as a plain `Date`. */
export function parseParisInstant(value: CalendarInstantInput): Date {
  return new Date(parisInstantMs(value));
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function parseCalendarDay(day: CalendarDay): { year: number; month: number; date: number } {
  if (!isCalendarDayString(day)) throw new RangeError(`Jour invalide : « ${day} »`);
  return { year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)), date: Number(day.slice(8, 10)) };
}

/** Builds a 'yyyy-MM-dd' day from its parts (month 1–12); overflowing parts roll over. */
export function calendarDayOf(year: number, month: number, date: number): CalendarDay {
  const utc = new Date(Date.UTC(year, month - 1, date));
  return `${pad(utc.getUTCFullYear(), 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}`;
}

/** The day `days` calendar days after (or before, if negative) `day`. */
export function addCalendarDays(day: CalendarDay, days: number): CalendarDay {
  const { year, month, date } = parseCalendarDay(day);
  return calendarDayOf(year, month, date + days);
}

/** ISO day of week of a calendar day: 1 = Monday … 7 = Sunday. */
export function isoDayOfWeek(day: CalendarDay): number {
  const { year, month, date } = parseCalendarDay(day);
  const sundayBased = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return sundayBased === 0 ? 7 : sundayBased;
}

const HOUR_MS = 3_600_000;
const OFFSET_CACHE_LIMIT = 50_000;
const offsetByHour = new Map<number, number>();

/**
 * Paris's UTC offset in milliseconds at an instant. Asking the time-zone
 * database (Intl, through TZDate) costs microseconds a call, and a rebuild or a
 * year of statistics asks millions of times; Paris changes its offset only on
 * whole UTC hours, so the answer is cached per hour once both ends of the hour
 * agree (an hour that contains a change is never cached). Bounded: the cache is
 * emptied when it reaches 50,000 hours (about 6 years).
 */
function parisOffsetMs(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS);
  const cached = offsetByHour.get(hour);
  if (cached !== undefined) return cached;
  const atStart = zoneOffsetMs(hour * HOUR_MS);
  const atEnd = zoneOffsetMs(hour * HOUR_MS + HOUR_MS - 1);
  if (atStart !== atEnd) return zoneOffsetMs(ms);
  if (offsetByHour.size >= OFFSET_CACHE_LIMIT) offsetByHour.clear();
  offsetByHour.set(hour, atStart);
  return atStart;
}

function zoneOffsetMs(ms: number): number {
  return -new TZDate(ms, PARIS_TIME_ZONE).getTimezoneOffset() * 60_000;
}

/** The instant's Paris wall-clock fields, read from a Date shifted by the offset (UTC getters only). */
function parisWallClock(instant: CalendarInstantInput): Date {
  const ms = parisInstantMs(instant);
  return new Date(ms + parisOffsetMs(ms));
}

/** The Europe/Paris calendar day an instant (or epoch milliseconds) falls on. */
export function parisCalendarDay(instant: CalendarInstantInput | number): CalendarDay {
  const wall = parisWallClock(typeof instant === 'number' ? new Date(instant) : instant);
  return `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
}

/**
 * Epoch milliseconds of 00:00 Europe/Paris on `day`. Midnight always exists in
 * Paris (clocks change at 02:00/03:00), so this is never ambiguous; a day lasts
 * 23 h or 25 h on the two DST Sundays.
 */
export function startOfParisDayMs(day: CalendarDay): number {
  const { year, month, date } = parseCalendarDay(day);
  const wallMidnight = Date.UTC(year, month - 1, date);
  // The offset at the instant guessed with the offset of the UTC midnight; one
  // correction is enough, since midnight is never in a gap or an overlap.
  const guess = wallMidnight - parisOffsetMs(wallMidnight);
  return wallMidnight - parisOffsetMs(guess);
}

/** Wall-clock time of an instant in Europe/Paris, in seconds since local midnight. */
export function parisSecondsOfDay(instant: CalendarInstantInput): number {
  const wall = parisWallClock(instant);
  return wall.getUTCHours() * 3600 + wall.getUTCMinutes() * 60 + wall.getUTCSeconds();
}

// ---------------------------------------------------------------------------
// French display: screens (web/src/lib/format.ts) and reports (workers)
// ---------------------------------------------------------------------------

// Built on first use: a time-zone formatter loads ICU's zone data (about 100 ms on a slow phone),
// which pages that print no date (the login, the public QR form) should not pay at start-up.
let frenchClockFormat: Intl.DateTimeFormat | undefined;
const frenchClock = () =>
  (frenchClockFormat ??= new Intl.DateTimeFormat('fr-FR', {
    timeZone: PARIS_TIME_ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }));

/** An instant's Paris wall clock as French displays print its fields: '02', '03', '2026', '10', '05'. */
export type ParisClockText = Record<'day' | 'month' | 'year' | 'hour' | 'minute', string>;

export function parisClockText(instant: CalendarInstantInput): ParisClockText {
  // Built from parts so the separators never depend on the ICU version.
  const text = { day: '', month: '', year: '', hour: '', minute: '' };
  for (const part of frenchClock().formatToParts(parseParisInstant(instant))) {
    if (part.type in text) text[part.type as keyof ParisClockText] = part.value;
  }
  return text;
}

/** '02/03/2026'. */
export function formatParisDate(instant: CalendarInstantInput): string {
  const { day, month, year } = parisClockText(instant);
  return `${day}/${month}/${year}`;
}

/** '02/03/2026 10:05' on screens; reports put ' à ' between the date and the time. */
export function formatParisDateTime(instant: CalendarInstantInput, separator = ' '): string {
  const { day, month, year, hour, minute } = parisClockText(instant);
  return `${day}/${month}/${year}${separator}${hour}:${minute}`;
}
