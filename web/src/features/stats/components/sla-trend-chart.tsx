import { SLA_OBJECTIVE_PCT, type WeeklySlaPoint } from '@fsm/contracts';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber } from '../../../lib/format';

/**
 * Intervention-delay compliance per week, with the 90 % objective drawn
 * across. The same figures follow in a table for screen readers and for
 * anybody who prefers numbers.
 */
export function SlaTrendChart({ points }: { points: readonly WeeklySlaPoint[] }) {
  const data = points.map((p) => ({ ...p }));
  return (
    <section className="card stack" aria-labelledby="trend-title">
      <h2 id="trend-title">Respect du délai d'intervention par semaine</h2>
      <div className="trend-chart" aria-hidden="true">
        <ResponsiveContainer width="100%" height={260} initialDimension={{ width: 640, height: 260 }}>
          {/*
            No keyboard layer: the chart is hidden from assistive technology (the
            table below says the same), so it must not take the focus either, or
            keyboard users would stop on something nothing announces.
          */}
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="var(--color-border)" strokeDasharray="3 3" />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis domain={[0, 100]} tickFormatter={(v: number) => `${v} %`} tick={{ fontSize: 12 }} width={48} />
            <Tooltip
              formatter={(value) => (typeof value === 'number' ? `${formatNumber(value)} %` : '—')}
              labelFormatter={(label) => String(label)}
            />
            <ReferenceLine y={SLA_OBJECTIVE_PCT} stroke="var(--bar-green)" strokeDasharray="6 4" label={{ value: `Objectif ${SLA_OBJECTIVE_PCT} %`, position: 'insideBottomLeft', fontSize: 12 }} />
            <Line type="monotone" dataKey="pct" name="Respect du délai" stroke="var(--color-primary)" strokeWidth={2} dot={{ r: 3 }} connectNulls={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <table className="data-table data-table--compact visually-hidden-table">
        <caption className="visually-hidden">Respect du délai d'intervention par semaine</caption>
        <thead>
          <tr>
            <th scope="col">Semaine</th>
            <th scope="col">Respect du délai</th>
            <th scope="col">Tickets jugés</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.week}>
              <th scope="row">{p.label}</th>
              <td>{p.pct === null ? '—' : `${formatNumber(p.pct)} %`}</td>
              <td>
                {p.ok} / {p.judged}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
