import { describe, expect, it } from 'vitest';
import {
  easterSunday,
  frenchPublicHolidays,
  isFrenchPublicHoliday,
  isFrenchWorkingDay,
} from './french-public-holidays.js';

describe('easterSunday (anonymous Gregorian algorithm)', () => {
  it.each([
    [2019, '2019-04-21'],
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2038, '2038-04-25'], // latest possible date
    [2285, '2285-03-22'], // earliest possible date
  ])('%i → %s', (year, expected) => {
    expect(easterSunday(year)).toBe(expected);
  });

  it('rejects years outside the Gregorian calendar', () => {
    expect(() => easterSunday(1582)).toThrow(RangeError);
    expect(() => easterSunday(2025.5)).toThrow(RangeError);
  });
});

describe('frenchPublicHolidays', () => {
  it('lists the eleven holidays of 2025 in date order', () => {
    expect(frenchPublicHolidays(2025)).toEqual([
      { date: '2025-01-01', name: 'Jour de l’an' },
      { date: '2025-04-21', name: 'Lundi de Pâques' },
      { date: '2025-05-01', name: 'Fête du Travail' },
      { date: '2025-05-08', name: 'Victoire 1945' },
      { date: '2025-05-29', name: 'Ascension' },
      { date: '2025-06-09', name: 'Lundi de Pentecôte' },
      { date: '2025-07-14', name: 'Fête nationale' },
      { date: '2025-08-15', name: 'Assomption' },
      { date: '2025-11-01', name: 'Toussaint' },
      { date: '2025-11-11', name: 'Armistice 1918' },
      { date: '2025-12-25', name: 'Noël' },
    ]);
  });

  it('computes Easter-based holidays for any year, e.g. 2024 and 2100', () => {
    const easterBased = (year: number) =>
      frenchPublicHolidays(year)
        .filter((h) => ['Lundi de Pâques', 'Ascension', 'Lundi de Pentecôte'].includes(h.name))
        .map((h) => h.date);
    expect(easterBased(2024)).toEqual(['2024-04-01', '2024-05-09', '2024-05-20']);
    expect(easterBased(2100)).toEqual(['2100-03-29', '2100-05-06', '2100-05-17']);
  });

  it('keeps both names when Ascension falls on 1 May (2008)', () => {
    const firstOfMay = frenchPublicHolidays(2008).filter((h) => h.date === '2008-05-01');
    expect(firstOfMay.map((h) => h.name).sort()).toEqual(['Ascension', 'Fête du Travail']);
  });

  it('returns a frozen list', () => {
    expect(Object.isFrozen(frenchPublicHolidays(2026))).toBe(true);
  });
});

describe('isFrenchPublicHoliday', () => {
  it('accepts calendar days', () => {
    expect(isFrenchPublicHoliday('2026-05-14')).toBe(true); // Ascension 2026
    expect(isFrenchPublicHoliday('2026-05-15')).toBe(false);
    expect(isFrenchPublicHoliday('2025-12-26')).toBe(false); // only in Alsace-Moselle
    expect(isFrenchPublicHoliday('2025-04-18')).toBe(false); // Good Friday, idem
  });

  it('places instants on their Paris day', () => {
    expect(isFrenchPublicHoliday(new Date('2025-12-24T23:30:00Z'))).toBe(true); // 00:30 on the 25th
    expect(isFrenchPublicHoliday(new Date('2025-12-25T23:30:00Z'))).toBe(false); // 00:30 on the 26th
    expect(isFrenchPublicHoliday('2025-07-14T23:59:59')).toBe(true);
  });
});

describe('isFrenchWorkingDay', () => {
  it('is Monday to Friday minus holidays', () => {
    expect(isFrenchWorkingDay('2025-05-07')).toBe(true); // Wednesday
    expect(isFrenchWorkingDay('2025-05-08')).toBe(false); // Thursday, 8 May
    expect(isFrenchWorkingDay('2025-05-10')).toBe(false); // Saturday
    expect(isFrenchWorkingDay('2025-05-11')).toBe(false); // Sunday
    expect(isFrenchWorkingDay(new Date('2025-05-11T22:30:00Z'))).toBe(true); // Monday 00:30 in Paris
  });
});
