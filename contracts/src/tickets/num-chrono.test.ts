import { describe, expect, it } from 'vitest';
import { formatNumChrono, parseNumChrono, ticketAgencyCode } from './num-chrono.js';

describe('ticketAgencyCode', () => {
  it('takes three capital letters from the name, accents and spaces dropped', () => {
    expect(ticketAgencyCode('Lyon Est')).toBe('LYO');
    expect(ticketAgencyCode('Agence Lyon Centre')).toBe('LYO');
    expect(ticketAgencyCode("Agence d'Annecy")).toBe('ANN');
    expect(ticketAgencyCode('Agence de Villeurbanne')).toBe('VIL');
    expect(ticketAgencyCode('Agence')).toBe('AGE');
    expect(ticketAgencyCode('Évry')).toBe('EVR');
    expect(ticketAgencyCode("l'Haÿ-les-Roses")).toBe('LHA');
  });

  it('pads short names with X', () => {
    expect(ticketAgencyCode('Ay')).toBe('AYX');
    expect(ticketAgencyCode('13')).toBe('XXX');
  });
});

describe('formatNumChrono', () => {
  it('reads agency code, year and a 5-digit sequence', () => {
    expect(formatNumChrono({ agencyCode: 'LYO', year: 2026, sequence: 42 })).toBe('LYO-2026-00042');
  });

  it('grows past 99 999 rather than wrapping', () => {
    expect(formatNumChrono({ agencyCode: 'LYO', year: 2026, sequence: 123_456 })).toBe('LYO-2026-123456');
  });

  it('refuses parts that would give an ambiguous number', () => {
    expect(() => formatNumChrono({ agencyCode: 'ly', year: 2026, sequence: 1 })).toThrow(RangeError);
    expect(() => formatNumChrono({ agencyCode: 'LYO', year: 26, sequence: 1 })).toThrow(RangeError);
    expect(() => formatNumChrono({ agencyCode: 'LYO', year: 2026, sequence: 0 })).toThrow(RangeError);
  });

  it('round-trips through parseNumChrono', () => {
    const parts = { agencyCode: 'PAR', year: 2027, sequence: 7 };
    expect(parseNumChrono(formatNumChrono(parts))).toEqual(parts);
    expect(parseNumChrono('PAR-2027-7')).toBeNull();
  });
});
