import { describe, expect, it } from 'vitest';
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
