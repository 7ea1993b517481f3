import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENCY_OPENING_HOURS, isWithinOpeningHours, type OpeningHoursDay } from './opening-hours.js';

// 2025-06-16 is a Monday, 2025-06-21 a Saturday.
describe('isWithinOpeningHours with the default hours', () => {
  it.each([
    ['2025-06-16T07:59:59', false],
    ['2025-06-16T08:00:00', true],
    ['2025-06-16T11:59:59', true],
    ['2025-06-16T12:00:00', false],
    ['2025-06-16T13:29:59', false],
    ['2025-06-16T13:30:00', true],
    ['2025-06-16T17:29:59', true],
    ['2025-06-16T17:30:00', false],
    ['2025-06-16T22:00:00', false],
    ['2025-06-20T10:00:00', true], // Friday
    ['2025-06-21T10:00:00', false], // Saturday
    ['2025-06-22T10:00:00', false], // Sunday
    ['2025-05-08T10:00:00', false], // Thursday 8 May
    ['2025-05-29T10:00:00', false], // Ascension
  ])('%s (Paris) → %s', (instant, expected) => {
    expect(isWithinOpeningHours(instant, DEFAULT_AGENCY_OPENING_HOURS)).toBe(expected);
  });

  it('uses the defaults when the agency has no hours', () => {
    expect(isWithinOpeningHours('2025-06-16T09:00:00', null)).toBe(true);
    expect(isWithinOpeningHours('2025-06-16T09:00:00', undefined)).toBe(true);
    expect(isWithinOpeningHours('2025-06-16T09:00:00', [])).toBe(true);
    expect(isWithinOpeningHours('2025-06-16T09:00:00')).toBe(true);
  });

  it('reads the instant in Paris whatever its offset', () => {
    // 07:30 UTC in June is 09:30 in Paris: open; 06:30 UTC in January is 07:30: closed.
    expect(isWithinOpeningHours(new Date('2025-06-16T07:30:00Z'))).toBe(true);
    expect(isWithinOpeningHours(new Date('2025-01-13T06:30:00Z'))).toBe(false);
  });
});

describe('isWithinOpeningHours with custom hours', () => {
  const mornings: OpeningHoursDay[] = [
    { day_of_week: 1, morning_open: '09:00', morning_close: '12:30', afternoon_open: null, afternoon_close: null },
    { day_of_week: 3, morning_open: null, morning_close: null, afternoon_open: '14:00', afternoon_close: '18:00' },
  ];

  it('follows the ticked half-days', () => {
    expect(isWithinOpeningHours('2025-06-16T12:15:00', mornings)).toBe(true); // Monday morning
    expect(isWithinOpeningHours('2025-06-16T15:00:00', mornings)).toBe(false); // Monday afternoon unticked
    expect(isWithinOpeningHours('2025-06-18T10:00:00', mornings)).toBe(false); // Wednesday morning unticked
    expect(isWithinOpeningHours('2025-06-18T17:45:00', mornings)).toBe(true);
  });

  it('treats a weekday without an entry as closed', () => {
    expect(isWithinOpeningHours('2025-06-17T10:00:00', mornings)).toBe(false); // Tuesday
  });

  it('accepts HH:mm:ss from SQL and treats a half-filled half-day as closed', () => {
    const loose = [
      { day_of_week: 2, morning_open: '08:00:00', morning_close: '12:00:00', afternoon_open: '13:30', afternoon_close: null },
    ];
    expect(isWithinOpeningHours('2025-06-17T10:00:00', loose)).toBe(true);
    expect(isWithinOpeningHours('2025-06-17T15:00:00', loose)).toBe(false);
  });
});

describe('DEFAULT_AGENCY_OPENING_HOURS', () => {
  it('opens Monday to Friday, 08:00–12:00 and 13:30–17:30', () => {
    expect(DEFAULT_AGENCY_OPENING_HOURS.map((d) => d.day_of_week)).toEqual([1, 2, 3, 4, 5]);
    for (const day of DEFAULT_AGENCY_OPENING_HOURS) {
      expect(day).toEqual({
        day_of_week: day.day_of_week, morning_open: '08:00', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '17:30',
      });
    }
    expect(Object.isFrozen(DEFAULT_AGENCY_OPENING_HOURS)).toBe(true);
  });
});
