import { TZDate } from '@date-fns/tz';
import { CLOSED_TICKETS_DEFAULT_RANGE_DAYS, TICKET_TIME_ZONE } from './ticket-constants.js';

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
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

function parisInstant(year: number, month: number, day: number, hours: number, minutes: number, seconds = 0, ms = 0): string {
  // A time inside the spring-forward gap (02:xx on the last Sunday of March)
  // does not exist; TZDate moves it one hour later, as a wall clock would.
  const zoned = new TZDate(year, month - 1, day, hours, minutes, seconds, ms, TICKET_TIME_ZONE);
  return new Date(zoned.getTime()).toISOString();
}

/** `YYYY-MM-DD` if it is a real calendar day, else null. */
export function parseTicketDate(value: string): string | null {
  const match = LOCAL_DATE.exec(value);
  if (!match) return null;
  const [, y, m, d] = match;
  return isCalendarDate(Number(y), Number(m), Number(d)) ? value : null;
}

/**
 * An instant as a UTC ISO string, from either a zoned ISO string
 * (`...Z`, `...+02:00`) or a local French date-time (`YYYY-MM-DDTHH:mm[:ss]`,
 * as a `datetime-local` field sends it). Null when it is not a real date.
 */
export function parseTicketDateTime(value: string): string | null {
  const trimmed = value.trim();
  if (ZONED_DATE_TIME.test(trimmed)) {
    const dayPart = trimmed.slice(0, 10);
    if (parseTicketDate(dayPart) === null) return null;
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  }
  const match = LOCAL_DATE_TIME.exec(trimmed);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, frac] = match;
  if (!isCalendarDate(Number(y), Number(mo), Number(d))) return null;
  const ms = frac === undefined ? 0 : Number(frac.padEnd(3, '0'));
  return parisInstant(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s ?? 0), ms);
}

/**
 * The registration instant of a manual ticket from its two form fields
 * (`date_enregistrement` `YYYY-MM-DD`, `heure_enregistrement` `HH:mm`, French
 * local time). Null when either is malformed.
 */
export function ticketRegistrationToIso(date: string, time: string): string | null {
  const dayMatch = LOCAL_DATE.exec(date);
  const timeMatch = LOCAL_TIME.exec(time);
  if (!dayMatch || !timeMatch) return null;
  const [, y, m, d] = dayMatch;
  const [, h, mi] = timeMatch;
  if (!isCalendarDate(Number(y), Number(m), Number(d))) return null;
  return parisInstant(Number(y), Number(m), Number(d), Number(h), Number(mi));
}

/** The French calendar day (`YYYY-MM-DD`) of an instant. */
export function ticketLocalDate(instant: Date | number | string): string {
  const zoned = new TZDate(typeof instant === 'string' ? Date.parse(instant) : new Date(instant).getTime(), TICKET_TIME_ZONE);
  const y = String(zoned.getFullYear()).padStart(4, '0');
  const m = String(zoned.getMonth() + 1).padStart(2, '0');
  const d = String(zoned.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** The French calendar year of an instant (a ticket opened at 00:30 on 1 January in Paris belongs to the new year). */
export function ticketLocalYear(instant: Date | number | string): number {
  return Number(ticketLocalDate(instant).slice(0, 4));
}

/**
 * Closed-ticket search default (spec §5): from 29 days ago through today,
 * French calendar days, both ends inclusive.
 */
export function defaultClosedTicketsRange(now: Date | number): { date_debut: string; date_fin: string } {
  const today = ticketLocalDate(now);
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
