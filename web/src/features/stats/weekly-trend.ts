import { percentWithOneDecimal, type StatsTicketItem } from '@fsm/contracts';
import { parisDateInput } from '../../lib/format';

export interface WeeklySlaPoint {
  /** Monday of the week, yyyy-MM-dd (Paris). */
  week: string;
  /** 'Sem. du 02/03'. */
  label: string;
  /** Tickets of the week judged on the intervention delay (sla_ok not N/A). */
  judged: number;
  ok: number;
  /** ok / judged in percent, one decimal as the summary rounds it; null for a week with nothing judged. */
  pct: number | null;
}

const DAY_MS = 86_400_000;

function dayToUtcMs(day: string): number {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  return Date.UTC(y, m - 1, d);
}

function utcMsToDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The Monday of the week holding `day` (ISO weeks start on Monday). */
export function mondayOf(day: string): string {
  const ms = dayToUtcMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return utcMsToDay(ms - weekday * DAY_MS);
}

function weekLabel(monday: string): string {
  const [, m = '', d = ''] = monday.split('-');
  return `Sem. du ${d}/${m}`;
}

/**
 * Intervention-delay compliance per week over [from, to], by the week the
 * ticket was opened (Paris). Every week of the range is present, so the chart
 * shows gaps rather than joining distant weeks; N/A tickets count in neither
 * part, as in the summary.
 */
export function weeklySlaTrend(items: readonly Pick<StatsTicketItem, 'created_at' | 'sla_ok'>[], from: string, to: string): WeeklySlaPoint[] {
  const points = new Map<string, WeeklySlaPoint>();
  if (from && to && from <= to) {
    for (let ms = dayToUtcMs(mondayOf(from)); ms <= dayToUtcMs(to); ms += 7 * DAY_MS) {
      const week = utcMsToDay(ms);
      points.set(week, { week, label: weekLabel(week), judged: 0, ok: 0, pct: null });
    }
  }
  for (const item of items) {
    if (item.sla_ok === null) continue;
    const created = new Date(item.created_at);
    if (Number.isNaN(created.getTime())) continue;
    const week = mondayOf(parisDateInput(created));
    const point = points.get(week) ?? { week, label: weekLabel(week), judged: 0, ok: 0, pct: null };
    point.judged += 1;
    if (item.sla_ok) point.ok += 1;
    points.set(week, point);
  }
  return [...points.values()]
    .sort((a, b) => a.week.localeCompare(b.week))
    .map((point) => ({ ...point, pct: percentWithOneDecimal(point.ok, point.judged) }));
}
