import { describe, expect, it } from 'vitest';
import { mondayOf, weeklySlaTrend } from './weekly-trend';

describe('weeklySlaTrend', () => {
  it('finds the Monday of a day', () => {
    expect(mondayOf('2026-03-04')).toBe('2026-03-02');
    expect(mondayOf('2026-03-02')).toBe('2026-03-02');
    expect(mondayOf('2026-03-08')).toBe('2026-03-02');
    expect(mondayOf('2026-01-01')).toBe('2025-12-29');
  });

  it('gives every week of the range, N/A tickets left out, by the Paris day of opening', () => {
    const points = weeklySlaTrend(
      [
        { created_at: '2026-03-02T09:00:00Z', sla_ok: true },
        { created_at: '2026-03-03T09:00:00Z', sla_ok: false },
        { created_at: '2026-03-04T09:00:00Z', sla_ok: true },
        { created_at: '2026-03-05T09:00:00Z', sla_ok: null },
        // Sunday 23:30 UTC is Monday in Paris: the third week.
        { created_at: '2026-03-15T23:30:00Z', sla_ok: true },
      ],
      '2026-03-01',
      '2026-03-17',
    );
    expect(points.map((p) => [p.week, p.label, p.ok, p.judged, p.pct])).toEqual([
      ['2026-02-23', 'Sem. du 23/02', 0, 0, null],
      ['2026-03-02', 'Sem. du 02/03', 2, 3, 66.7],
      ['2026-03-09', 'Sem. du 09/03', 0, 0, null],
      ['2026-03-16', 'Sem. du 16/03', 1, 1, 100],
    ]);
  });
});
