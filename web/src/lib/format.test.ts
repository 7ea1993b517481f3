import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber } from './format';

describe('formatDateTime', () => {
  it('shows Paris wall-clock time in fr-FR order', () => {
    expect(formatDateTime('2026-11-22T13:05:00Z')).toBe('22/11/2026 14:05'); // CET, UTC+1
    expect(formatDateTime('2026-07-01T06:30:00Z')).toBe('01/07/2026 08:30'); // CEST, UTC+2
  });

  it('uses 00 for midnight, not 24', () => {
    expect(formatDateTime('2026-01-09T23:00:00Z')).toBe('10/01/2026 00:00');
  });

  it('shows an em dash for missing or invalid input', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime(undefined)).toBe('—');
    expect(formatDateTime('pas une date')).toBe('—');
  });
});

describe('formatDate', () => {
  it('keeps only the day', () => {
    expect(formatDate(new Date('2026-11-22T23:30:00Z'))).toBe('23/11/2026');
  });
});

describe('formatNumber', () => {
  it('groups thousands with a narrow no-break space and uses a decimal comma', () => {
    expect(formatNumber(1234.5)).toBe('1\u202f234,5');
  });
});

describe('form input defaults', () => {
  it('gives Paris wall-clock date and time whatever the machine zone', async () => {
    const { parisDateInput, parisTimeInput, parisDateTimeInput } = await import('./format');
    const instant = new Date('2026-11-22T23:30:00Z'); // 00:30 on the 23rd in Paris
    expect(parisDateInput(instant)).toBe('2026-11-23');
    expect(parisTimeInput(instant)).toBe('00:30');
    expect(parisDateTimeInput(instant)).toBe('2026-11-23T00:30');
  });
});

describe('formatDurationMinutes', () => {
  it('reads days and hours, hours and minutes, or minutes', async () => {
    const { formatDurationMinutes } = await import('./format');
    expect(formatDurationMinutes(60 * 24 * 2 + 5 * 60 + 7)).toBe('2 j 5 h');
    expect(formatDurationMinutes(200)).toBe('3 h 20 min');
    expect(formatDurationMinutes(120)).toBe('2 h');
    expect(formatDurationMinutes(45)).toBe('45 min');
    expect(formatDurationMinutes(null)).toBe('—');
  });
});
