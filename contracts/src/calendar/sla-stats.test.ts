import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slaDeadline } from './sla-clock.js';
import {
  DEVIS_OBJECTIVE_PCT,
  devisOk,
  gaugeStatus,
  percentWithOneDecimal,
  SLA_OBJECTIVE_PCT,
  slaOk,
  STATS_DEVIS_WINDOW_MS,
  summarizeStats,
} from './sla-stats.js';

const NOW = '2025-07-01T12:00:00';

describe('slaOk', () => {
  // Opened Friday 13 June 2025 at 17:00 with 8 h: working-day deadline Monday 01:00.
  const base = { createdAt: '2025-06-13T17:00:00', delaiHours: 8, now: NOW };

  it('judges the arrival under the trade’s clock, bounds included', () => {
    expect(slaOk({ ...base, calendarTime: false, arriveAt: '2025-06-16T01:00:00' })).toBe(true);
    expect(slaOk({ ...base, calendarTime: false, arriveAt: '2025-06-16T01:00:01' })).toBe(false);
    expect(slaOk({ ...base, calendarTime: true, arriveAt: '2025-06-14T01:00:00' })).toBe(true);
    expect(slaOk({ ...base, calendarTime: true, arriveAt: '2025-06-14T01:00:01' })).toBe(false);
  });

  it('falls back to the closing when there is no arrival', () => {
    expect(slaOk({ ...base, calendarTime: false, arriveAt: null, closAt: '2025-06-15T12:00:00' })).toBe(true);
    expect(slaOk({ ...base, calendarTime: false, closAt: '2025-06-16T09:00:00' })).toBe(false);
  });

  it('prefers the arrival over a later closing', () => {
    expect(
      slaOk({ ...base, calendarTime: false, arriveAt: '2025-06-13T19:00:00', closAt: '2025-06-20T12:00:00' }),
    ).toBe(true);
  });

  it('is false once the deadline has passed with no arrival nor closing', () => {
    expect(slaOk({ ...base, calendarTime: false, now: '2025-06-16T02:00:00' })).toBe(false);
  });

  it('is N/A while the deadline is still ahead, or when no delay is defined', () => {
    expect(slaOk({ ...base, calendarTime: false, now: '2025-06-15T23:00:00' })).toBeNull();
    expect(slaOk({ ...base, delaiHours: null, calendarTime: false, arriveAt: '2025-06-13T18:00:00' })).toBeNull();
    expect(slaOk({ ...base, delaiHours: undefined, calendarTime: true, arriveAt: '2025-06-13T18:00:00' })).toBeNull();
  });

  it('rejects a negative delay', () => {
    expect(() => slaOk({ ...base, delaiHours: -2, calendarTime: true, arriveAt: NOW })).toThrow(RangeError);
  });

  it('agrees with slaDeadline: on time exactly when arriving at or before the deadline', () => {
    const instant = fc
      .integer({ min: Date.UTC(2024, 0, 1) / 1000, max: Date.UTC(2027, 0, 1) / 1000 })
      .map((s) => new Date(s * 1000));
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 96 }),
        fc.integer({ min: 0, max: 10 * 24 * 3600 }),
        fc.boolean(),
        (createdAt, delaiHours, afterSeconds, calendarTime) => {
          const arriveAt = new Date(createdAt.getTime() + afterSeconds * 1000);
          const deadline = slaDeadline(createdAt, delaiHours, { calendarTime });
          const ok = slaOk({ createdAt, arriveAt, delaiHours, calendarTime, now: arriveAt });
          return ok === arriveAt.getTime() <= deadline.getTime();
        },
      ),
    );
  });
});

describe('devisOk', () => {
  const closAt = '2025-06-16T10:00:00';

  it('is N/A when no quote was requested', () => {
    expect(devisOk({ devis: 0, closAt, devisRegisteredAt: null, now: NOW })).toBeNull();
    expect(devisOk({ devis: null, closAt, devisRegisteredAt: null, now: NOW })).toBeNull();
  });

  it('is N/A while the ticket is not closed', () => {
    expect(devisOk({ devis: 1, closAt: null, devisRegisteredAt: null, now: NOW })).toBeNull();
  });

  it('is true when registered within 5 days of closing, bound included', () => {
    expect(devisOk({ devis: 1, closAt, devisRegisteredAt: '2025-06-21T10:00:00', now: NOW })).toBe(true);
    expect(devisOk({ devis: true, closAt, devisRegisteredAt: '2025-06-16T09:00:00', now: NOW })).toBe(true);
  });

  it('is false when registered later', () => {
    expect(devisOk({ devis: 1, closAt, devisRegisteredAt: '2025-06-21T10:00:01', now: NOW })).toBe(false);
  });

  it('counts real time: the window is the same over a weekend or a holiday', () => {
    // Closed Wednesday 7 May 2025 (8 May is a holiday): 5 days end Monday 12 May at the same time.
    const closedBeforeHoliday = '2025-05-07T16:00:00';
    expect(devisOk({ devis: 1, closAt: closedBeforeHoliday, devisRegisteredAt: '2025-05-12T16:00:00', now: NOW })).toBe(true);
    expect(devisOk({ devis: 1, closAt: closedBeforeHoliday, devisRegisteredAt: '2025-05-12T16:00:01', now: NOW })).toBe(false);
  });

  it('without a registration, is N/A during the window and false after it', () => {
    const end = new Date(new Date('2025-06-16T10:00:00+02:00').getTime() + STATS_DEVIS_WINDOW_MS);
    expect(devisOk({ devis: 1, closAt, devisRegisteredAt: null, now: end })).toBeNull();
    expect(devisOk({ devis: 1, closAt, devisRegisteredAt: null, now: new Date(end.getTime() + 1) })).toBe(false);
  });
});

describe('percentWithOneDecimal', () => {
  it('rounds half up to one decimal', () => {
    expect(percentWithOneDecimal(2, 3)).toBe(66.7);
    expect(percentWithOneDecimal(1, 16)).toBe(6.3);
    expect(percentWithOneDecimal(9, 10)).toBe(90);
    expect(percentWithOneDecimal(3, 3)).toBe(100);
    expect(percentWithOneDecimal(0, 3)).toBe(0);
  });

  it('never shows an imperfect rate as 100', () => {
    expect(percentWithOneDecimal(1999, 2000)).toBe(99.9);
  });

  it('is null for an empty denominator', () => {
    expect(percentWithOneDecimal(0, 0)).toBeNull();
  });
});

describe('summarizeStats', () => {
  it('sums flags and leaves N/A out of both counts', () => {
    expect(
      summarizeStats([
        { sla_ok: true, devis_ok: null },
        { sla_ok: true, devis_ok: true },
        { sla_ok: false, devis_ok: false },
        { sla_ok: 1, devis_ok: 1 },
        { sla_ok: null, devis_ok: undefined },
        { sla_ok: 0, devis_ok: null },
      ]),
    ).toEqual({ sla_pct: 60, sla_ok: 3, total: 5, devis_pct: 66.7, devis_ok: 2, devis_eligible: 3 });
  });

  it('gives zero counts and null percentages for an empty set', () => {
    expect(summarizeStats([])).toEqual({
      sla_pct: null, sla_ok: 0, total: 0, devis_pct: null, devis_ok: 0, devis_eligible: 0,
    });
  });

  it('gives a null quote percentage when no quote was requested', () => {
    const summary = summarizeStats([{ sla_ok: true, devis_ok: null }]);
    expect(summary.sla_pct).toBe(100);
    expect(summary.devis_pct).toBeNull();
  });
});

describe('objectives and gauges', () => {
  it('sets 90 % for delays and 100 % for quotes', () => {
    expect(SLA_OBJECTIVE_PCT).toBe(90);
    expect(DEVIS_OBJECTIVE_PCT).toBe(100);
  });

  it.each([
    [90, SLA_OBJECTIVE_PCT, true, 'Atteint'],
    [89.9, SLA_OBJECTIVE_PCT, false, 'À améliorer'],
    [100, DEVIS_OBJECTIVE_PCT, true, 'Atteint'],
    [99.9, DEVIS_OBJECTIVE_PCT, false, 'À améliorer'],
  ] as const)('%d %% against %d %% → %s', (pct, objective, reached, label) => {
    expect(gaugeStatus(pct, objective)).toEqual({ reached, label });
  });

  it('has no status without data', () => {
    expect(gaugeStatus(null, SLA_OBJECTIVE_PCT)).toBeNull();
  });
});
