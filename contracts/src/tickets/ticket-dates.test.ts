import { describe, expect, it } from 'vitest';
import {
  defaultClosedTicketsRange,
  parseTicketDate,
  parseTicketDateTime,
  readTicketDate,
  readTicketDateTime,
  readTicketRegistration,
  ticketEcheance,
  ticketLocalYear,
  ticketRegistrationToIso,
} from './ticket-dates.js';
import { parisCalendarDay } from '../calendar/paris-time.js';

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

describe('the range of ticket dates (issue 17: year 0100 answered 500, year 1500 stopped the read side)', () => {
  it('accepts French days from 01/01/2000 through 31/12/2099, in every parser', () => {
    expect(parseTicketDate('2000-01-01')).toBe('2000-01-01');
    expect(parseTicketDate('2099-12-31')).toBe('2099-12-31');
    expect(parseTicketDateTime('2000-01-01T00:00')).toBe('1999-12-31T23:00:00.000Z');
    expect(parseTicketDateTime('2099-12-31T23:59')).toBe('2099-12-31T22:59:00.000Z');
    expect(ticketRegistrationToIso('2000-01-01', '00:00')).toBe('1999-12-31T23:00:00.000Z');
  });

  it('judges a zoned instant by its French day, not by the year written in it', () => {
    expect(parseTicketDateTime('1999-12-31T23:30:00Z')).toBe('1999-12-31T23:30:00.000Z');
    expect(readTicketDateTime('1999-12-31T22:59:59Z')).toEqual({ ok: false, reason: 'out_of_range' });
    expect(readTicketDateTime('2099-12-31T23:00:00Z')).toEqual({ ok: false, reason: 'out_of_range' });
  });

  it.each(['0100', '1500', '1582', '1999', '2100', '9999'])('says year %s is out of range, whatever the parser', (year) => {
    const outOfRange = { ok: false, reason: 'out_of_range' };
    expect(readTicketDate(`${year}-06-15`)).toEqual(outOfRange);
    expect(readTicketDateTime(`${year}-06-15T10:00`)).toEqual(outOfRange);
    expect(readTicketDateTime(`${year}-06-15T10:00:00Z`)).toEqual(outOfRange);
    expect(readTicketRegistration(`${year}-06-15`, '10:00')).toEqual(outOfRange);
    expect(parseTicketDate(`${year}-06-15`)).toBeNull();
    expect(parseTicketDateTime(`${year}-06-15T10:00`)).toBeNull();
    expect(ticketRegistrationToIso(`${year}-06-15`, '10:00')).toBeNull();
  });

  it('reads years 0000-0099 as themselves (not 1900-1999) and refuses them as out of range', () => {
    expect(readTicketDate('0050-01-01')).toEqual({ ok: false, reason: 'out_of_range' });
    expect(readTicketDateTime('0099-12-31T10:00')).toEqual({ ok: false, reason: 'out_of_range' });
  });

  it('still calls a date that does not exist invalid, not out of range', () => {
    expect(readTicketDate('1500-02-30')).toEqual({ ok: false, reason: 'invalid' });
    expect(readTicketRegistration('2026-03-02', '25:00')).toEqual({ ok: false, reason: 'invalid' });
    expect(readTicketRegistration('1500-03-02', '8h')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('French calendar day and year', () => {
  it('counts 00:30 on 1 January in Paris as the new year although it is still 31 December in UTC', () => {
    expect(parisCalendarDay('2025-12-31T23:30:00.000Z')).toBe('2026-01-01');
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
