import { describe, expect, it } from 'vitest';
import { deadlineBar } from './deadline-bar.js';

const createdAt = '2026-03-01T08:00:00.000Z';
const hoursAfter = (h: number) => Date.parse(createdAt) + h * 3_600_000;

describe('deadlineBar', () => {
  it('takes the deadline as a date', () => {
    const bar = deadlineBar(createdAt, '2026-03-01T18:00:00.000Z', hoursAfter(2));
    expect(bar).toMatchObject({ deadlineAt: '2026-03-01T18:00:00.000Z', share: 0.2, percent: 20, colour: 'green', overdue: false });
  });

  it('takes the deadline as hours after creation', () => {
    expect(deadlineBar(createdAt, 10, hoursAfter(5))).toMatchObject({ deadlineAt: '2026-03-01T18:00:00.000Z', share: 0.5, colour: 'orange' });
  });

  it('is green up to 33 %, orange up to 66 %, red above', () => {
    expect(deadlineBar(createdAt, 100, hoursAfter(33))?.colour).toBe('green');
    expect(deadlineBar(createdAt, 100, hoursAfter(33.1))?.colour).toBe('orange');
    expect(deadlineBar(createdAt, 100, hoursAfter(66))?.colour).toBe('orange');
    expect(deadlineBar(createdAt, 100, hoursAfter(66.1))?.colour).toBe('red');
  });

  it('caps the width at 100 % and reports the overrun once late', () => {
    expect(deadlineBar(createdAt, 4, hoursAfter(6))).toMatchObject({ share: 1.5, percent: 100, colour: 'red', overdue: true });
  });

  it('freezes at the closing time when given clos_at', () => {
    expect(deadlineBar(createdAt, 4, '2026-03-01T09:00:00.000Z')).toMatchObject({ share: 0.25, colour: 'green' });
  });

  it('treats a zero delay as used up at once', () => {
    expect(deadlineBar(createdAt, 0, hoursAfter(1))).toMatchObject({ colour: 'red', overdue: true, percent: 100 });
  });

  it('shows nothing without a deadline or with an unreadable date', () => {
    expect(deadlineBar(createdAt, null, hoursAfter(1))).toBeNull();
    expect(deadlineBar('pas une date', 4, hoursAfter(1))).toBeNull();
  });
});
