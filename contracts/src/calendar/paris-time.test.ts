import { describe, expect, it } from 'vitest';
import { TZDate } from '@date-fns/tz';
import {
  addCalendarDays,
  isCalendarDayString,
  isoDayOfWeek,
  parisCalendarDay,
  parisInstantMs,
  parisSecondsOfDay,
  parseParisInstant,
  startOfParisDayMs,
} from './paris-time.js';

describe('parseParisInstant', () => {
  it('reads a string without offset as Paris wall-clock time, winter and summer', () => {
    expect(parseParisInstant('2025-01-15T10:00:00').toISOString()).toBe('2025-01-15T09:00:00.000Z');
    expect(parseParisInstant('2025-07-15 10:00:00').toISOString()).toBe('2025-07-15T08:00:00.000Z');
    expect(parseParisInstant('2025-07-15 10:00').toISOString()).toBe('2025-07-15T08:00:00.000Z');
  });

  it('reads a bare date as 00:00 in Paris', () => {
    expect(parseParisInstant('2025-07-15').toISOString()).toBe('2025-07-14T22:00:00.000Z');
  });

  it('honours an explicit offset or Z', () => {
    expect(parseParisInstant('2025-07-15T10:00:00Z').toISOString()).toBe('2025-07-15T10:00:00.000Z');
    expect(parseParisInstant('2025-07-15T10:00:00.250+05:30').toISOString()).toBe('2025-07-15T04:30:00.250Z');
    expect(parseParisInstant('2025-07-15T10:00:00-0300').toISOString()).toBe('2025-07-15T13:00:00.000Z');
  });

  it('passes a Date through', () => {
    const date = new Date('2025-07-15T10:00:00Z');
    expect(parisInstantMs(date)).toBe(date.getTime());
  });

  it('moves a time in the spring gap forward one hour', () => {
    expect(parseParisInstant('2025-03-30T02:30:00').toISOString()).toBe('2025-03-30T01:30:00.000Z');
  });

  it('takes the winter-time occurrence of a time in the autumn overlap', () => {
    expect(parseParisInstant('2025-10-26T02:30:00').toISOString()).toBe('2025-10-26T01:30:00.000Z');
  });

  it('rejects malformed or impossible values', () => {
    for (const bad of ['', 'hier', '2025-02-30', '2025-13-01T00:00:00', '2025-01-01T24:00:00', '15/07/2025']) {
      expect(() => parseParisInstant(bad), bad).toThrow(RangeError);
    }
    expect(() => parisInstantMs(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('calendar days', () => {
  it('validates yyyy-MM-dd strings', () => {
    expect(isCalendarDayString('2024-02-29')).toBe(true);
    expect(isCalendarDayString('2025-02-29')).toBe(false);
    expect(isCalendarDayString('2025-2-1')).toBe(false);
  });

  it('adds days across months, years and leap days', () => {
    expect(addCalendarDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addCalendarDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addCalendarDays('2025-03-01', -29)).toBe('2025-01-31');
  });

  it('gives ISO weekdays', () => {
    expect(isoDayOfWeek('2025-06-16')).toBe(1);
    expect(isoDayOfWeek('2025-06-20')).toBe(5);
    expect(isoDayOfWeek('2025-06-22')).toBe(7);
  });

  it('places an instant on its Paris day, not its UTC day', () => {
    expect(parisCalendarDay(new Date('2025-12-24T23:30:00Z'))).toBe('2025-12-25');
    expect(parisCalendarDay(new Date('2025-06-30T22:30:00Z'))).toBe('2025-07-01');
    expect(parisCalendarDay('2025-06-30T23:59:59')).toBe('2025-06-30');
  });

  it('knows that the DST Sundays last 23 h and 25 h', () => {
    expect(startOfParisDayMs('2025-03-31') - startOfParisDayMs('2025-03-30')).toBe(23 * 3_600_000);
    expect(startOfParisDayMs('2025-10-27') - startOfParisDayMs('2025-10-26')).toBe(25 * 3_600_000);
    expect(startOfParisDayMs('2025-06-02') - startOfParisDayMs('2025-06-01')).toBe(24 * 3_600_000);
  });

  it('reads the wall clock in Paris', () => {
    expect(parisSecondsOfDay(new Date('2025-07-15T06:30:15Z'))).toBe(8 * 3600 + 30 * 60 + 15);
    expect(parisSecondsOfDay(new Date('2025-01-15T06:30:00Z'))).toBe(7 * 3600 + 30 * 60);
  });
});

describe('the cached Paris offset', () => {
  // The reference: TZDate asked every time, as these helpers did before the cache.
  const reference = (ms: number) => {
    const paris = new TZDate(ms, 'Europe/Paris');
    return {
      day: `${paris.getFullYear()}-${String(paris.getMonth() + 1).padStart(2, '0')}-${String(paris.getDate()).padStart(2, '0')}`,
      seconds: paris.getHours() * 3600 + paris.getMinutes() * 60 + paris.getSeconds(),
    };
  };

  it('gives the time-zone database’s answer around every change of 2024–2027, minute by minute', () => {
    // Changes happen at 01:00 UTC on the last Sundays of March and October.
    const changes = ['2024-03-31', '2024-10-27', '2025-03-30', '2025-10-26', '2026-03-29', '2026-10-25', '2027-03-28', '2027-10-31'];
    for (const day of changes) {
      const change = Date.parse(`${day}T01:00:00Z`);
      for (let ms = change - 3 * 3_600_000; ms <= change + 3 * 3_600_000; ms += 60_000 + 7) {
        const expected = reference(ms);
        expect(parisCalendarDay(new Date(ms)), new Date(ms).toISOString()).toBe(expected.day);
        expect(parisSecondsOfDay(new Date(ms)), new Date(ms).toISOString()).toBe(expected.seconds);
      }
      const midnight = new TZDate(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), 0, 0, 0, 0, 'Europe/Paris');
      expect(startOfParisDayMs(day)).toBe(midnight.getTime());
    }
  });

  it('agrees with the time-zone database on 20,000 random instants over ten years', () => {
    let state = 12345;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const from = Date.parse('2020-01-01T00:00:00Z');
    for (let i = 0; i < 20_000; i += 1) {
      const ms = Math.floor(from + next() * 10 * 365 * 86_400_000);
      const expected = reference(ms);
      expect(parisCalendarDay(new Date(ms))).toBe(expected.day);
      expect(parisSecondsOfDay(new Date(ms))).toBe(expected.seconds);
      const [year, month, date] = expected.day.split('-').map(Number) as [number, number, number];
      expect(startOfParisDayMs(expected.day)).toBe(new TZDate(year, month - 1, date, 0, 0, 0, 0, 'Europe/Paris').getTime());
    }
  });
});
