import { parisCalendarDay, parisWallTimeMs } from '../calendar/paris-time.js';
import { CLOSED_TICKETS_DEFAULT_RANGE_DAYS, TICKET_DATE_MAX_DAY, TICKET_DATE_MIN_DAY } from './ticket-constants.js';

/**
 * Dates on the ticket side. Users type local French times (a `datetime-local`
 * field has no zone); events and answers carry UTC ISO strings. These helpers
 * are the one place where a local time becomes an instant, so the browser and
 * the server read "14:30" the same way whatever the machine's zone is.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,3}))?)?$/;
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

function parisInstant(year: number, month: number, day: number, hours: number, minutes: number, seconds = 0, ms = 0): string {
  return new Date(parisWallTimeMs(year, month, day, hours, minutes, seconds, ms)).toISOString();
}

/**
 * What a typed ticket date reads as: the normalised value, or why it was
 * refused. `out_of_range` is a real date outside TICKET_DATE_MIN_DAY ..
 * TICKET_DATE_MAX_DAY (French calendar days): every parser below applies the
 * range, so no caller can let year 0100 or 1500 through to the num_chrono or
 * the SLA clock, which cannot handle them.
 */
export type TicketDateReading = { ok: true; value: string } | { ok: false; reason: 'invalid' | 'out_of_range' };

const INVALID: TicketDateReading = { ok: false, reason: 'invalid' };
const OUT_OF_RANGE: TicketDateReading = { ok: false, reason: 'out_of_range' };

/** Whether a French calendar day (`YYYY-MM-DD`) lies in the range of ticket dates. */
export function isTicketDayInRange(day: string): boolean {
  return LOCAL_DATE.test(day) && day >= TICKET_DATE_MIN_DAY && day <= TICKET_DATE_MAX_DAY;
}

/** Whether an instant (ISO string) falls on a French calendar day in the range of ticket dates. */
export function isTicketInstantInRange(instant: string): boolean {
  const ms = Date.parse(instant);
  // Beyond year 9000 or so a day would print with more than four digits and compare wrongly; such an instant is out of range anyway.
  return Number.isFinite(ms) && Math.abs(ms) < 2.5e14 && isTicketDayInRange(parisCalendarDay(ms));
}

function inRange(instant: string): TicketDateReading {
  return isTicketInstantInRange(instant) ? { ok: true, value: instant } : OUT_OF_RANGE;
}

/** A `YYYY-MM-DD` French calendar day, kept as typed. */
export function readTicketDate(value: string): TicketDateReading {
  const match = LOCAL_DATE.exec(value);
  if (!match) return INVALID;
  const [, y, m, d] = match;
  if (!isCalendarDate(Number(y), Number(m), Number(d))) return INVALID;
  return isTicketDayInRange(value) ? { ok: true, value } : OUT_OF_RANGE;
}

/**
 * An instant as a UTC ISO string, from either a zoned ISO string
 * (`...Z`, `...+02:00`) or a local French date-time (`YYYY-MM-DDTHH:mm[:ss]`,
 * as a `datetime-local` field sends it).
 */
export function readTicketDateTime(value: string): TicketDateReading {
  const trimmed = value.trim();
  if (ZONED_DATE_TIME.test(trimmed)) {
    const [, y, m, d] = LOCAL_DATE.exec(trimmed.slice(0, 10)) ?? [];
    if (!isCalendarDate(Number(y), Number(m), Number(d))) return INVALID;
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? INVALID : inRange(new Date(ms).toISOString());
  }
  const match = LOCAL_DATE_TIME.exec(trimmed);
  if (!match) return INVALID;
  const [, y, mo, d, h, mi, s, frac] = match;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return INVALID;
  // The range is on the typed French day: checked before building the instant,
  // which TZDate would shift for years 0-99.
  if (!isTicketDayInRange(`${y}-${mo}-${d}`)) return OUT_OF_RANGE;
  const ms = frac === undefined ? 0 : Number(frac.padEnd(3, '0'));
  return { ok: true, value: parisInstant(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0), ms) };
}

/**
 * The registration instant of a manual ticket from its two form fields
 * (`date_enregistrement` `YYYY-MM-DD`, `heure_enregistrement` `HH:mm`, French
 * local time).
 */
export function readTicketRegistration(date: string, time: string): TicketDateReading {
  const timeMatch = LOCAL_TIME.exec(time);
  if (!timeMatch) return INVALID;
  const day = readTicketDate(date);
  if (!day.ok) return day;
  const [, y, m, d] = LOCAL_DATE.exec(date)!;
  const [, h, mi] = timeMatch;
  return { ok: true, value: parisInstant(Number(y), Number(m), Number(d), Number(h), Number(mi)) };
}

/** `YYYY-MM-DD` if it is a real calendar day in the range of ticket dates, else null. */
export function parseTicketDate(value: string): string | null {
  const reading = readTicketDate(value);
  return reading.ok ? reading.value : null;
}

/** {@link readTicketDateTime}'s instant, or null when it is not a date in the range of ticket dates. */
export function parseTicketDateTime(value: string): string | null {
  const reading = readTicketDateTime(value);
  return reading.ok ? reading.value : null;
}

/** {@link readTicketRegistration}'s instant, or null when either field is malformed or out of range. */
export function ticketRegistrationToIso(date: string, time: string): string | null {
  const reading = readTicketRegistration(date, time);
  return reading.ok ? reading.value : null;
}

/** The French calendar year of an instant (a ticket opened at 00:30 on 1 January in Paris belongs to the new year). */
export function ticketLocalYear(instant: Date | number | string): number {
  return Number(parisCalendarDay(instant).slice(0, 4));
}

/**
 * Closed-ticket search default (spec §5): from 29 days ago through today,
 * French calendar days, both ends inclusive.
 */
export function defaultClosedTicketsRange(now: Date | number): { date_debut: string; date_fin: string } {
  const today = parisCalendarDay(now);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  // Calendar arithmetic on the day, not on the instant, so a DST change
  // inside the window cannot shift the start by a day.
  const start = new Date(Date.UTC(y, m - 1, d) - (CLOSED_TICKETS_DEFAULT_RANGE_DAYS - 1) * DAY_MS);
  return { date_debut: start.toISOString().slice(0, 10), date_fin: today };
}

/**
 * Deadline of a ticket: opening instant plus the delay in hours. Calendar
 * hours (nights, weekends and holidays count): the SLA of an on-call
 * fire-safety installation runs around the clock. Null when no delay applies.
 */
export function ticketEcheance(openedAt: string, delaiHours: number | null): string | null {
  if (delaiHours === null) return null;
  return new Date(Date.parse(openedAt) + delaiHours * HOUR_MS).toISOString();
}
