import { describe, expect, it } from 'vitest';
import {
  defaultStatsWindow,
  formatClosingDuration,
  isWithinStatsWindow,
  meanClosingMilliseconds,
  meanClosingTimeLabel,
  performanceIndicator,
} from './home-summary.js';

const HOUR = 3_600_000;

describe('defaultStatsWindow', () => {
  it('runs from 29 days before today through today', () => {
    expect(defaultStatsWindow('2025-07-15T10:00:00')).toEqual({ from: '2025-06-16', to: '2025-07-15' });
  });

  it('takes today in Paris, not in UTC', () => {
    // 22:30 UTC on 14 July is already 15 July in Paris.
    expect(defaultStatsWindow(new Date('2025-07-14T22:30:00Z'))).toEqual({ from: '2025-06-16', to: '2025-07-15' });
  });

  it('crosses month and leap-year ends', () => {
    expect(defaultStatsWindow('2024-03-01T08:00:00')).toEqual({ from: '2024-02-01', to: '2024-03-01' });
    expect(defaultStatsWindow('2025-01-10T08:00:00')).toEqual({ from: '2024-12-12', to: '2025-01-10' });
  });
});

describe('isWithinStatsWindow', () => {
  const window = { from: '2025-06-16', to: '2025-07-15' };

  it('includes both end days whole, in Paris time', () => {
    expect(isWithinStatsWindow('2025-06-16T00:00:00', window)).toBe(true);
    expect(isWithinStatsWindow('2025-07-15T23:59:59', window)).toBe(true);
    expect(isWithinStatsWindow('2025-06-15T23:59:59', window)).toBe(false);
    expect(isWithinStatsWindow('2025-07-16T00:00:00', window)).toBe(false);
  });
});

describe('mean closing time', () => {
  it('averages closed tickets only, in real elapsed time', () => {
    const items = [
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T12:00:00' }, // 4 h
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T14:00:00' }, // 6 h
      { createdAt: '2025-06-16T08:00:00', closAt: null },
      { createdAt: '2025-06-16T08:00:00' },
    ];
    expect(meanClosingMilliseconds(items)).toBe(5 * HOUR);
    expect(meanClosingTimeLabel(items)).toBe('5h');
  });

  it('shows days and hours from one day on', () => {
    const items = [
      { createdAt: '2025-06-13T10:00:00', closAt: '2025-06-16T10:00:00' }, // 72 h
      { createdAt: '2025-06-16T10:00:00', closAt: '2025-06-16T20:00:00' }, // 10 h
    ];
    expect(meanClosingTimeLabel(items)).toBe('1j 17h');
  });

  it('shows an em dash without any closed ticket', () => {
    expect(meanClosingMilliseconds([])).toBeNull();
    expect(meanClosingTimeLabel([{ createdAt: '2025-06-16T08:00:00', closAt: null }])).toBe('—');
  });

  it.each([
    [0, '0h'],
    [29 * 60_000, '0h'],
    [30 * 60_000, '1h'],
    [5 * HOUR, '5h'],
    [23 * HOUR + 40 * 60_000, '1j 0h'],
    [24 * HOUR, '1j 0h'],
    [50 * HOUR, '2j 2h'],
    [-3 * HOUR, '0h'],
  ])('formats %d ms as %s', (ms, label) => {
    expect(formatClosingDuration(ms)).toBe(label);
  });
});

describe('performanceIndicator', () => {
  it('counts closed tickets with an echeance closed on or before it', () => {
    const items = [
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T12:00:00', echeance: '2025-06-16T12:00:00' }, // on it
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T12:00:01', echeance: '2025-06-16T12:00:00' }, // late
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-18T23:00:00', echeance: '2025-06-18' }, // that day
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-19T00:30:00', echeance: '2025-06-18' }, // next day
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T11:00:00', echeance: 4 }, // hours after creation
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T13:00:00', echeance: 4 },
      { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T09:00:00', echeance: null }, // no echeance
      { createdAt: '2025-06-16T08:00:00', closAt: null, echeance: '2025-06-30' }, // not closed
    ];
    expect(performanceIndicator(items)).toEqual({ pct: 50, count: 3, total: 6 });
  });

  it('has a null percentage when no closed ticket has an echeance', () => {
    expect(performanceIndicator([])).toEqual({ pct: null, count: 0, total: 0 });
  });

  it('rounds to one decimal', () => {
    const onTime = { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T09:00:00', echeance: 2 };
    const late = { ...onTime, echeance: 0.5 };
    expect(performanceIndicator([onTime, onTime, late])).toEqual({ pct: 66.7, count: 2, total: 3 });
  });
});
