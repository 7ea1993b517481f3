import { formatParisDate, formatParisDateTime, parisCalendarDay, parisClockText } from '@fsm/contracts';

/**
 * French display formats (UI.md): dates `22/11/2026 14:05` in Europe/Paris
 * whatever the device's zone (calendar/paris-time.ts in contracts, shared with
 * the reports), numbers `1 234,5`.
 */

const EMPTY = '—';

const numberFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

export type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `22/11/2026 14:05`; an em dash for a missing or invalid date. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? formatParisDateTime(date) : EMPTY;
}

/** `22/11/2026`; an em dash for a missing or invalid date. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return date ? formatParisDate(date) : EMPTY;
}

/** `1 234,5` with the narrow no-break space French uses between thousands. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return EMPTY;
  return numberFormat.format(value);
}

/** `YYYY-MM-DD` of an instant in Paris, for `<input type="date">`. */
export function parisDateInput(now: Date = new Date()): string {
  return parisCalendarDay(now);
}

/** `HH:mm` of an instant in Paris, for `<input type="time">`. */
export function parisTimeInput(now: Date = new Date()): string {
  const { hour, minute } = parisClockText(now);
  return `${hour}:${minute}`;
}

/** `YYYY-MM-DDTHH:mm` in Paris, for `<input type="datetime-local">`. */
export function parisDateTimeInput(now: Date = new Date()): string {
  return `${parisDateInput(now)}T${parisTimeInput(now)}`;
}

/** A duration in minutes as French words: `2 j 5 h`, `3 h 20 min`, `45 min`. */
export function formatDurationMinutes(minutes: number | null | undefined): string {
  if (minutes === null || minutes === undefined || Number.isNaN(minutes)) return EMPTY;
  const total = Math.max(0, Math.round(minutes));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const mins = total % 60;
  if (days > 0) return `${days} j ${hours} h`;
  if (hours > 0) return mins > 0 ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}
