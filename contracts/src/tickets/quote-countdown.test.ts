import { describe, expect, it } from 'vitest';
import { QUOTE_WINDOW_MS } from './ticket-constants.js';
import { quoteCountdown } from './quote-countdown.js';

const requestedAt = '2026-03-01T08:00:00.000Z';
const at = (ms: number) => Date.parse(requestedAt) + ms;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('quoteCountdown', () => {
  it('is due 5 days (432000000 ms) after the quote was asked for', () => {
    expect(QUOTE_WINDOW_MS).toBe(432_000_000);
    expect(quoteCountdown(requestedAt, at(0)).dueAt).toBe('2026-03-06T08:00:00.000Z');
  });

  it('starts green with the whole window left', () => {
    expect(quoteCountdown(requestedAt, at(0))).toMatchObject({ daysLeft: 5, hoursLeft: 0, elapsedFraction: 0, colour: 'green', overdue: false });
  });

  it('shows days and hours left and the elapsed fraction', () => {
    const c = quoteCountdown(requestedAt, at(DAY + 6 * HOUR + 30 * 60_000));
    expect(c).toMatchObject({ daysLeft: 3, hoursLeft: 17, colour: 'green' });
    expect(c.elapsedFraction).toBeCloseTo((30.5 * HOUR) / QUOTE_WINDOW_MS);
  });

  it('turns yellow at exactly 3 days left and stays yellow above 1 day', () => {
    expect(quoteCountdown(requestedAt, at(2 * DAY - 1)).colour).toBe('green');
    expect(quoteCountdown(requestedAt, at(2 * DAY)).colour).toBe('yellow');
    expect(quoteCountdown(requestedAt, at(4 * DAY - 1)).colour).toBe('yellow');
  });

  it('turns red at 1 day left or less', () => {
    expect(quoteCountdown(requestedAt, at(4 * DAY)).colour).toBe('red');
    expect(quoteCountdown(requestedAt, at(4 * DAY + 20 * HOUR)).colour).toBe('red');
  });

  it('is overdue after the window, with nothing left and a full bar', () => {
    expect(quoteCountdown(requestedAt, new Date(at(6 * DAY)))).toMatchObject({ daysLeft: 0, hoursLeft: 0, elapsedFraction: 1, colour: 'red', overdue: true, msLeft: -DAY });
  });
});
