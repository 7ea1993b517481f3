import { describe, expect, it } from 'vitest';
import {
  defaultClosedTicketsRange,
  parseTicketDate,
  parseTicketDateTime,
  ticketEcheance,
  ticketLocalDate,
  ticketLocalYear,
  ticketRegistrationToIso,
} from './ticket-dates.js';

describe('parseTicketDateTime', () => {
  it('reads a datetime-local value as French time (winter UTC+1, summer UTC+2)', () => {
    expect(parseTicketDateTime('2026-01-15T14:30')).toBe('2026-01-15T13:30:00.000Z');
    expect(parseTicketDateTime('2026-07-15T14:30')).toBe('2026-07-15T12:30:00.000Z');
    expect(parseTicketDateTime('2026-07-15 14:30:15')).toBe('2026-07-15T12:30:15.000Z');
  });

  it('keeps the instant of a zoned ISO string and normalises it to UTC', () => {
    expect(parseTicketDateTime('2026-07-15T14:30:00+02:00')).toBe('2026-07-15T12:30:00.000Z');
    expect(parseTicketDateTime('2026-07-15T12:30:00.000Z')).toBe('2026-07-15T12:30:00.000Z');
  });

  it('refuses what is not a real date-time', () => {
    expect(parseTicketDateTime('2026-02-30T10:00')).toBeNull();
    expect(parseTicketDateTime('2026-13-01T10:00')).toBeNull();
    expect(parseTicketDateTime('2026-01-01T24:00')).toBeNull();
    expect(parseTicketDateTime('demain')).toBeNull();
    expect(parseTicketDateTime('2026-02-30T10:00:00Z')).toBeNull();
  });

  it('moves a time inside the spring-forward gap one hour later, as a wall clock does', () => {
    expect(parseTicketDateTime('2026-03-29T02:30')).toBe('2026-03-29T01:30:00.000Z');
  });
});

describe('parseTicketDate', () => {
  it('accepts real calendar days only', () => {
    expect(parseTicketDate('2024-02-29')).toBe('2024-02-29');
    expect(parseTicketDate('2026-02-29')).toBeNull();
    expect(parseTicketDate('29/02/2024')).toBeNull();
  });
});

describe('ticketRegistrationToIso', () => {
  it('combines the manual form date and time in French time', () => {
    expect(ticketRegistrationToIso('2026-03-02', '08:15')).toBe('2026-03-02T07:15:00.000Z');
  });

  it('refuses a malformed date or time', () => {
    expect(ticketRegistrationToIso('2026-03-32', '08:15')).toBeNull();
    expect(ticketRegistrationToIso('2026-03-02', '8h15')).toBeNull();
  });
});

describe('French calendar day and year', () => {
  it('counts 00:30 on 1 January in Paris as the new year although it is still 31 December in UTC', () => {
    expect(ticketLocalDate('2025-12-31T23:30:00.000Z')).toBe('2026-01-01');
    expect(ticketLocalYear('2025-12-31T23:30:00.000Z')).toBe(2026);
  });
});

describe('defaultClosedTicketsRange', () => {
  it('runs from 29 days ago through today, in French days', () => {
    expect(defaultClosedTicketsRange(Date.parse('2026-03-31T10:00:00Z'))).toEqual({ date_debut: '2026-03-02', date_fin: '2026-03-31' });
  });

  it('uses the French day when UTC is still on the previous one', () => {
    expect(defaultClosedTicketsRange(new Date('2026-03-31T22:30:00Z'))).toEqual({ date_debut: '2026-03-03', date_fin: '2026-04-01' });
  });
});

describe('ticketEcheance', () => {
  it('adds the delay in calendar hours, nights and weekends included', () => {
    expect(ticketEcheance('2026-03-06T16:00:00.000Z', 72)).toBe('2026-03-09T16:00:00.000Z');
  });

  it('has no deadline without a delay', () => {
    expect(ticketEcheance('2026-03-06T16:00:00.000Z', null)).toBeNull();
  });
});
