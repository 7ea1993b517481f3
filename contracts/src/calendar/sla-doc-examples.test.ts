// Each worked example of docs/sla.md, one test each, numbered as in the doc.
import { describe, expect, it } from 'vitest';
import { easterSunday, frenchPublicHolidays } from './french-public-holidays.js';
import { defaultStatsWindow, meanClosingTimeLabel } from './home-summary.js';
import { countedHoursBetween, slaDeadline, slaClockForHoStats } from './sla-clock.js';
import { DEVIS_OBJECTIVE_PCT, gaugeStatus, percentWithOneDecimal, SLA_OBJECTIVE_PCT, slaOk, summarizeStats } from './sla-stats.js';
import { isUrgentTicket } from './urgent-ticket.js';

const HO_STATS_0 = slaClockForHoStats(0);
const HO_STATS_1 = slaClockForHoStats(1);

/** The deadline as an ISO string with the Paris offset written out, for readable failures. */
function deadline(openedAt: string, hours: number, clock: { calendarTime: boolean }): string {
  return slaDeadline(openedAt, hours, clock).toISOString();
}
function at(isoWithOffset: string): string {
  return new Date(isoWithOffset).toISOString();
}

describe('docs/sla.md worked examples', () => {
  it('E1 — Easter dates and the 2025 holidays', () => {
    expect([2024, 2025, 2026, 2027, 2019, 2038, 2285].map(easterSunday)).toEqual([
      '2024-03-31', '2025-04-20', '2026-04-05', '2027-03-28', '2019-04-21', '2038-04-25', '2285-03-22',
    ]);
    expect(frenchPublicHolidays(2025).map((h) => h.date)).toEqual([
      '2025-01-01', '2025-04-21', '2025-05-01', '2025-05-08', '2025-05-29', '2025-06-09',
      '2025-07-14', '2025-08-15', '2025-11-01', '2025-11-11', '2025-12-25',
    ]);
  });

  it('E2 — urgency table', () => {
    const urgent = (openedAt: string, astreinte: 0 | 1 = 1) => isUrgentTicket({ astreinte, openedAt, horaires: null });
    expect(urgent('2025-06-17T10:00:00')).toBe(false);
    expect(urgent('2025-06-17T08:00:00')).toBe(false);
    expect(urgent('2025-06-17T12:30:00')).toBe(true);
    expect(urgent('2025-06-17T17:30:00')).toBe(true);
    expect(urgent('2025-06-17T21:00:00')).toBe(true);
    expect(urgent('2025-06-21T10:00:00')).toBe(true);
    expect(urgent('2025-05-08T10:00:00')).toBe(true);
    expect(urgent('2025-06-21T10:00:00', 0)).toBe(false);
  });

  it('E3 — Friday 17:00 + 4 h, and the weekend cases', () => {
    expect(deadline('2025-06-13T17:00:00', 4, HO_STATS_0)).toBe(at('2025-06-13T21:00:00+02:00'));
    expect(deadline('2025-06-13T17:00:00', 8, HO_STATS_0)).toBe(at('2025-06-16T01:00:00+02:00'));
    expect(deadline('2025-06-13T21:00:00', 4, HO_STATS_0)).toBe(at('2025-06-16T01:00:00+02:00'));
    expect(deadline('2025-06-13T20:00:00', 4, HO_STATS_0)).toBe(at('2025-06-16T00:00:00+02:00'));
    expect(deadline('2025-06-13T17:00:00', 8, HO_STATS_1)).toBe(at('2025-06-14T01:00:00+02:00'));
  });

  it('E4 — the day before Ascension', () => {
    expect(deadline('2025-05-28T22:00:00', 4, HO_STATS_0)).toBe(at('2025-05-30T02:00:00+02:00'));
    expect(deadline('2025-05-28T22:00:00', 4, HO_STATS_1)).toBe(at('2025-05-29T02:00:00+02:00'));
  });

  it('E5 — DST change weekends', () => {
    expect(deadline('2025-03-28T22:00:00', 4, HO_STATS_0)).toBe(at('2025-03-31T02:00:00+02:00'));
    expect(deadline('2025-03-29T22:00:00', 6, HO_STATS_1)).toBe(at('2025-03-30T05:00:00+02:00'));
    expect(deadline('2025-10-25T22:00:00', 6, HO_STATS_1)).toBe(at('2025-10-26T03:00:00+01:00'));
    expect(deadline('2025-10-25T22:00:00', 6, HO_STATS_0)).toBe(at('2025-10-27T06:00:00+01:00'));
  });

  it('E6 — a ticket spanning Christmas', () => {
    expect(deadline('2025-12-24T16:00:00', 48, HO_STATS_0)).toBe(at('2025-12-29T16:00:00+01:00'));
    expect(deadline('2025-12-24T16:00:00', 48, HO_STATS_1)).toBe(at('2025-12-26T16:00:00+01:00'));
    expect(countedHoursBetween('2025-12-24T16:00:00', '2025-12-29T10:00:00', HO_STATS_0)).toBe(42);
    expect(countedHoursBetween('2025-12-24T16:00:00', '2025-12-29T10:00:00', HO_STATS_1)).toBe(114);
  });

  it('E7 — 8 May on a weekday', () => {
    expect(deadline('2025-05-07T20:00:00', 8, HO_STATS_0)).toBe(at('2025-05-09T04:00:00+02:00'));
    expect(deadline('2025-05-07T20:00:00', 8, HO_STATS_1)).toBe(at('2025-05-08T04:00:00+02:00'));
    expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-05-08T10:00:00' })).toBe(true);
    expect(isUrgentTicket({ astreinte: 1, openedAt: '2025-05-07T10:00:00' })).toBe(false);
  });

  it('E8 — HO_stats = 1 vs 0 on the same ticket', () => {
    const ticket = {
      createdAt: '2025-06-13T21:00:00', arriveAt: '2025-06-16T00:30:00', delaiHours: 4, now: '2025-07-01T00:00:00',
    };
    expect(countedHoursBetween(ticket.createdAt, ticket.arriveAt, HO_STATS_1)).toBe(51.5);
    expect(deadline(ticket.createdAt, 4, HO_STATS_1)).toBe(at('2025-06-14T01:00:00+02:00'));
    expect(slaOk({ ...ticket, ...HO_STATS_1 })).toBe(false);
    expect(countedHoursBetween(ticket.createdAt, ticket.arriveAt, HO_STATS_0)).toBe(3.5);
    expect(deadline(ticket.createdAt, 4, HO_STATS_0)).toBe(at('2025-06-16T01:00:00+02:00'));
    expect(slaOk({ ...ticket, ...HO_STATS_0 })).toBe(true);
  });

  it('E9 — summary, and the empty set', () => {
    const sla = [true, true, false, 1, null, 0] as const;
    const devis = [null, true, false, 1, undefined, null] as const;
    expect(summarizeStats(sla.map((s, i) => ({ sla_ok: s, devis_ok: devis[i] })))).toEqual({
      sla_pct: 60, sla_ok: 3, total: 5, devis_pct: 66.7, devis_ok: 2, devis_eligible: 3,
    });
    expect(summarizeStats([])).toEqual({
      sla_pct: null, sla_ok: 0, total: 0, devis_pct: null, devis_ok: 0, devis_eligible: 0,
    });
  });

  it('E10 — gauges', () => {
    expect(gaugeStatus(90, SLA_OBJECTIVE_PCT).label).toBe('Atteint');
    expect(gaugeStatus(89.9, SLA_OBJECTIVE_PCT).label).toBe('À améliorer');
    expect(gaugeStatus(percentWithOneDecimal(1999, 2000), DEVIS_OBJECTIVE_PCT)?.label).toBe('À améliorer');
    expect(gaugeStatus(100, DEVIS_OBJECTIVE_PCT).label).toBe('Atteint');
  });

  it('E11 — default stats window', () => {
    expect(defaultStatsWindow('2025-07-15T10:00:00')).toEqual({ from: '2025-06-16', to: '2025-07-15' });
    expect(defaultStatsWindow('2025-07-14T22:30:00Z')).toEqual({ from: '2025-06-16', to: '2025-07-15' });
  });

  it('E12 — mean closing time', () => {
    expect(
      meanClosingTimeLabel([
        { createdAt: '2025-06-13T10:00:00', closAt: '2025-06-16T10:00:00' },
        { createdAt: '2025-06-16T10:00:00', closAt: '2025-06-16T20:00:00' },
      ]),
    ).toBe('1j 17h');
    expect(
      meanClosingTimeLabel([
        { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T12:00:00' },
        { createdAt: '2025-06-16T08:00:00', closAt: '2025-06-16T14:00:00' },
      ]),
    ).toBe('5h');
    expect(meanClosingTimeLabel([])).toBe('—');
  });
});
