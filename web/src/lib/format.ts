/**
 * French display formats (UI.md): dates `22/11/2026 14:05` in Europe/Paris
 * whatever the device's zone, numbers `1 234,5`.
 */

const DISPLAY_TIME_ZONE = 'Europe/Paris';
const EMPTY = '—';

const dateTimeFormat = new Intl.DateTimeFormat('fr-FR', {
  timeZone: DISPLAY_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const numberFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

export type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parts(date: Date): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  // Built from parts so the separators never depend on the ICU version.
  const out = { day: '', month: '', year: '', hour: '', minute: '' };
  for (const part of dateTimeFormat.formatToParts(date)) {
    if (part.type in out) out[part.type as keyof typeof out] = part.value;
  }
  return out;
}

/** `22/11/2026 14:05`; an em dash for a missing or invalid date. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return EMPTY;
  const p = parts(date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** `22/11/2026`; an em dash for a missing or invalid date. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  if (!date) return EMPTY;
  const p = parts(date);
  return `${p.day}/${p.month}/${p.year}`;
}

/** `1 234,5` with the narrow no-break space French uses between thousands. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return EMPTY;
  return numberFormat.format(value);
}

const inputPartsFormat = new Intl.DateTimeFormat('fr-FR', {
  timeZone: DISPLAY_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function inputParts(date: Date): Record<'day' | 'month' | 'year' | 'hour' | 'minute', string> {
  const out = { day: '', month: '', year: '', hour: '', minute: '' };
  for (const part of inputPartsFormat.formatToParts(date)) {
    if (part.type in out) out[part.type as keyof typeof out] = part.value;
  }
  return out;
}

/** `YYYY-MM-DD` of an instant in Paris, for `<input type="date">`. */
export function parisDateInput(now: Date = new Date()): string {
  const p = inputParts(now);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `HH:mm` of an instant in Paris, for `<input type="time">`. */
export function parisTimeInput(now: Date = new Date()): string {
  const p = inputParts(now);
  return `${p.hour}:${p.minute}`;
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
