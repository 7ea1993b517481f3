import {
  addCalendarDays,
  calendarDayOf,
  isCalendarDayString,
  isoDayOfWeek,
  parisCalendarDay,
  type CalendarDay,
  type CalendarInstantInput,
} from './paris-time.js';

export interface FrenchPublicHoliday {
  /** 'yyyy-MM-dd' */
  readonly date: CalendarDay;
  readonly name: string;
}

/**
 * Easter Sunday of a Gregorian year, by the anonymous Gregorian algorithm
 * (Meeus/Jones/Butcher). Valid from 1583, the first full Gregorian year.
 */
export function easterSunday(year: number): CalendarDay {
  assertGregorianYear(year);
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return calendarDayOf(year, month, day);
}

function assertGregorianYear(year: number): void {
  if (!Number.isInteger(year) || year < 1583 || year > 9999) {
    throw new RangeError(`Année invalide : ${year}`);
  }
}

const FIXED_HOLIDAYS: ReadonlyArray<readonly [month: number, day: number, name: string]> = [
  [1, 1, 'Jour de l’an'],
  [5, 1, 'Fête du Travail'],
  [5, 8, 'Victoire 1945'],
  [7, 14, 'Fête nationale'],
  [8, 15, 'Assomption'],
  [11, 1, 'Toussaint'],
  [11, 11, 'Armistice 1918'],
  [12, 25, 'Noël'],
];

const EASTER_OFFSETS: ReadonlyArray<readonly [days: number, name: string]> = [
  [1, 'Lundi de Pâques'],
  [39, 'Ascension'],
  [50, 'Lundi de Pentecôte'],
];

// Holidays are recomputed from the rules for any year; this cache only saves
// repeating the arithmetic when an SLA clock walks day after day.
const holidaysByYear = new Map<number, readonly FrenchPublicHoliday[]>();
const holidayDaysByYear = new Map<number, ReadonlySet<CalendarDay>>();

/**
 * The eleven national French public holidays of `year` (metropolitan law, as
 * applied today), sorted by date. Alsace-Moselle's extra days (Good Friday,
 * 26 December) are not included.
 */
export function frenchPublicHolidays(year: number): readonly FrenchPublicHoliday[] {
  const cached = holidaysByYear.get(year);
  if (cached) return cached;
  assertGregorianYear(year);
  const easter = easterSunday(year);
  const holidays: FrenchPublicHoliday[] = [
    ...FIXED_HOLIDAYS.map(([month, day, name]) => ({ date: calendarDayOf(year, month, day), name })),
    ...EASTER_OFFSETS.map(([days, name]) => ({ date: addCalendarDays(easter, days), name })),
  ];
  // Ascension can fall on 1 or 8 May (e.g. 2008): both names are kept, as two
  // entries for the same day; the day is a holiday either way.
  holidays.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  const frozen = Object.freeze(holidays.map((h) => Object.freeze(h)));
  holidaysByYear.set(year, frozen);
  return frozen;
}

function holidayDays(year: number): ReadonlySet<CalendarDay> {
  const cached = holidayDaysByYear.get(year);
  if (cached) return cached;
  const days = new Set(frenchPublicHolidays(year).map((h) => h.date));
  holidayDaysByYear.set(year, days);
  return days;
}

/**
 * Whether `date` is a French public holiday. A 'yyyy-MM-dd' string is taken as
 * that calendar day; any other value is an instant, placed on its
 * Europe/Paris day (so 2025-12-24T23:30:00Z, which is 00:30 on the 25th in
 * Paris, is Christmas).
 */
export function isFrenchPublicHoliday(date: CalendarInstantInput): boolean {
  const day = typeof date === 'string' && isCalendarDayString(date) ? date : parisCalendarDay(date);
  return holidayDays(Number(day.slice(0, 4))).has(day);
}

/**
 * Whether `date` is a working day: Monday to Friday and not a French public
 * holiday. Same reading of `date` as {@link isFrenchPublicHoliday}.
 */
export function isFrenchWorkingDay(date: CalendarInstantInput): boolean {
  const day = typeof date === 'string' && isCalendarDayString(date) ? date : parisCalendarDay(date);
  return isoDayOfWeek(day) <= 5 && !holidayDays(Number(day.slice(0, 4))).has(day);
}
