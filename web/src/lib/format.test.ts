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
