import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countedHoursBetween,
  countedMillisecondsBetween,
  slaClockForHoStats,
  slaDeadline,
} from './sla-clock.js';

const HOUR = 3_600_000;
const calendar = { calendarTime: true } as const;
const workingDays = { calendarTime: false } as const;

describe('slaClockForHoStats', () => {
  it('maps HO_stats 1 to calendar time and 0 to working days', () => {
    expect(slaClockForHoStats(1)).toEqual(calendar);
    expect(slaClockForHoStats(0)).toEqual(workingDays);
    expect(slaClockForHoStats(true)).toEqual(calendar);
  });
});

describe('countedHoursBetween', () => {
  it('counts every hour on calendar time, including the DST hour', () => {
    expect(countedHoursBetween('2025-06-13T17:00:00', '2025-06-16T01:00:00', calendar)).toBe(56);
    // Saturday 22:00 → Sunday 04:00 across the spring change: 5 real hours.
    expect(countedHoursBetween('2025-03-29T22:00:00', '2025-03-30T04:00:00', calendar)).toBe(5);
    // … and across the autumn change: 7 real hours.
    expect(countedHoursBetween('2025-10-25T22:00:00', '2025-10-26T04:00:00', calendar)).toBe(7);
  });

  it('skips whole Saturdays, Sundays and holidays on working-day time', () => {
    expect(countedHoursBetween('2025-06-13T17:00:00', '2025-06-16T01:00:00', workingDays)).toBe(8);
    expect(countedHoursBetween('2025-06-14T09:00:00', '2025-06-15T18:00:00', workingDays)).toBe(0);
    expect(countedHoursBetween('2025-05-28T22:00:00', '2025-05-30T02:00:00', workingDays)).toBe(4);
  });

  it('counts nights of working days (the rule is about days, not opening hours)', () => {
    expect(countedHoursBetween('2025-06-16T20:00:00', '2025-06-17T06:00:00', workingDays)).toBe(10);
  });

  it('is 0 for equal bounds and negated for reversed bounds', () => {
    expect(countedHoursBetween('2025-06-16T20:00:00', '2025-06-16T20:00:00', workingDays)).toBe(0);
    expect(countedHoursBetween('2025-06-16T01:00:00', '2025-06-13T17:00:00', workingDays)).toBe(-8);
  });

  it('handles spans of several years', () => {
    // 2025 has 261 weekdays; 10 of its 11 holidays fall on one (1 November is a Saturday).
    expect(countedHoursBetween('2025-01-01', '2026-01-01', workingDays)).toBe(251 * 24);
  });
});

describe('slaDeadline', () => {
  it('adds real hours on calendar time', () => {
    expect(slaDeadline('2025-06-13T17:00:00', 4, calendar).toISOString()).toBe(
      new Date('2025-06-13T21:00:00+02:00').toISOString(),
    );
  });

  it('resumes at 00:00 of the next working day when the delay ends at midnight', () => {
    expect(slaDeadline('2025-06-13T20:00:00', 4, workingDays).toISOString()).toBe(
      new Date('2025-06-16T00:00:00+02:00').toISOString(),
    );
  });

  it('gives the opening instant for a zero delay on a working day, Monday 00:00 on a weekend', () => {
    expect(slaDeadline('2025-06-16T10:00:00', 0, workingDays).toISOString()).toBe(
      new Date('2025-06-16T10:00:00+02:00').toISOString(),
    );
    expect(slaDeadline('2025-06-14T10:00:00', 0, workingDays).toISOString()).toBe(
      new Date('2025-06-16T00:00:00+02:00').toISOString(),
    );
  });

  it('handles fractional hours', () => {
    expect(slaDeadline('2025-06-13T23:00:00', 1.5, workingDays).toISOString()).toBe(
      new Date('2025-06-16T00:30:00+02:00').toISOString(),
    );
  });

  it('rejects a negative or non-finite delay', () => {
    expect(() => slaDeadline('2025-06-13T17:00:00', -1, workingDays)).toThrow(RangeError);
    expect(() => slaDeadline('2025-06-13T17:00:00', Number.NaN, calendar)).toThrow(RangeError);
  });
});

describe('SLA clock properties', () => {
  // Instants between 2024 and 2028, to the second; spans and delays up to 60 days.
  const instant = fc
    .integer({ min: Date.UTC(2024, 0, 1) / 1000, max: Date.UTC(2028, 0, 1) / 1000 })
    .map((s) => new Date(s * 1000));
  const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
  const spanMs = fc.integer({ min: 0, max: 60 * 24 * HOUR });
  const delayMs = spanMs;

  it('working-day time never exceeds calendar time', () => {
    fc.assert(
      fc.property(instant, spanMs, (start, span) => {
        const end = later(start, span);
        const counted = countedMillisecondsBetween(start, end, workingDays);
        return counted >= 0 && counted <= end.getTime() - start.getTime();
      }),
    );
  });

  it('counts add up over consecutive spans', () => {
    fc.assert(
      fc.property(instant, spanMs, spanMs, (a, first, second) => {
        const b = later(a, first);
        const c = later(b, second);
        return (
          countedMillisecondsBetween(a, c, workingDays) ===
          countedMillisecondsBetween(a, b, workingDays) + countedMillisecondsBetween(b, c, workingDays)
        );
      }),
    );
  });

  it('the deadline is the last instant at which the delay is not exceeded', () => {
    fc.assert(
      fc.property(instant, delayMs, fc.boolean(), (openedAt, ms, calendarTime) => {
        const clock = { calendarTime };
        const deadline = slaDeadline(openedAt, ms / HOUR, clock);
        const justAfter = new Date(deadline.getTime() + 1);
        return (
          countedMillisecondsBetween(openedAt, deadline, clock) === ms &&
          countedMillisecondsBetween(openedAt, justAfter, clock) === ms + 1
        );
      }),
    );
  });
});
