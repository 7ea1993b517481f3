import { describe, expect, it } from 'vitest';
import type { OpeningHoursDay } from './opening-hours.js';
import { isUrgentTicket } from './urgent-ticket.js';

describe('isUrgentTicket', () => {
  describe('when the installation is on call (astreinte = 1)', () => {
    it.each([
      ['Tuesday 10:00, agency open', '2025-06-17T10:00:00', false],
      ['Tuesday 08:00 sharp, opening', '2025-06-17T08:00:00', false],
      ['Tuesday 12:30, lunch break', '2025-06-17T12:30:00', true],
      ['Tuesday 17:30 sharp, closing', '2025-06-17T17:30:00', true],
      ['Tuesday 21:00, evening', '2025-06-17T21:00:00', true],
      ['Wednesday 03:00, night', '2025-06-18T03:00:00', true],
      ['Saturday 10:00, weekend', '2025-06-21T10:00:00', true],
      ['Thursday 8 May 10:00, public holiday', '2025-05-08T10:00:00', true],
    ])('%s → urgent %s', (_label, openedAt, expected) => {
      expect(isUrgentTicket({ astreinte: 1, openedAt, horaires: null })).toBe(expected);
    });

    it('follows the agency’s own hours', () => {
      const lateAgency: OpeningHoursDay[] = [1, 2, 3, 4, 5].map((d) => ({
        day_of_week: d,
        morning_open: '09:00', morning_close: '12:00', afternoon_open: '14:00', afternoon_close: '19:00',
      }));
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T18:30:00', horaires: lateAgency })).toBe(false);
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T08:30:00', horaires: lateAgency })).toBe(true);
    });

    it('follows a day open without a midday break, as the agency form stores 07:30–19:00 (one half-day, the other null)', () => {
      const noBreak: OpeningHoursDay[] = [
        { day_of_week: 2, morning_open: '07:30', morning_close: '19:00', afternoon_open: null, afternoon_close: null },
      ];
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T07:30:00', horaires: noBreak })).toBe(false);
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T12:45:00', horaires: noBreak })).toBe(false);
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T18:59:00', horaires: noBreak })).toBe(false);
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T07:29:00', horaires: noBreak })).toBe(true);
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-17T19:00:00', horaires: noBreak })).toBe(true);
      // The other weekdays have no entry: closed all day.
      expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-06-18T10:00:00', horaires: noBreak })).toBe(true);
    });

    it('accepts a boolean flag', () => {
      expect(isUrgentTicket({ astreinte: true, openedAt: '2025-06-21T10:00:00' })).toBe(true);
    });
  });

  describe('when the installation is not on call (astreinte = 0)', () => {
    it('is never urgent, even at night, on a weekend or a holiday', () => {
      for (const openedAt of ['2025-06-18T03:00:00', '2025-06-21T10:00:00', '2025-12-25T10:00:00']) {
        expect(isUrgentTicket({ astreinte: 0, openedAt })).toBe(false);
        expect(isUrgentTicket({ astreinte: false, openedAt })).toBe(false);
      }
    });
  });
});
