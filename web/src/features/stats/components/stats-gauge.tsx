import { gaugeStatus } from '@fsm/contracts';
import { useId } from 'react';
import { meterProps } from '../../../components/ui/progress-bar';
import { formatNumber } from '../../../lib/format';

/**
 * One objective (§4, §9): the rate as a ring and in figures, green 'Atteint'
 * when it reaches the objective, red 'À améliorer' otherwise (gaugeStatus).
 * No rate (nothing to judge) shows '—' and no verdict. Colour never speaks
 * alone: the verdict is written.
 */
export function StatsGauge({
  title,
  pct,
  objective,
  part,
  whole,
  unit,
  basis,
}: {
  title: string;
  pct: number | null;
  objective: number;
  part: number;
  whole: number;
  unit: string;
  /** What the rate counts, in words (issue 32: the home page's performance counts something else). */
  basis?: string;
}) {
  // An id without spaces: aria-labelledby reads a space-separated list of ids.
  const titleId = useId();
  const status = gaugeStatus(pct, objective);
  const tone = status === null ? 'none' : status.reached ? 'reached' : 'missed';
  const value = pct === null ? null : Math.max(0, Math.min(100, pct));
  const valueText = pct === null ? 'Aucune donnée' : `${formatNumber(pct)} % — ${status?.label ?? ''}`;
  return (
    <article className={`stats-gauge stats-gauge--${tone}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="stats-gauge__title">
        {title}
      </h2>
      <div className="stats-gauge__ring" {...meterProps(title, value ?? undefined, valueText)} style={{ ['--gauge-pct' as string]: `${value ?? 0}` }}>
        <span className="stats-gauge__value">{pct === null ? '—' : `${formatNumber(pct)} %`}</span>
      </div>
      {status ? <p className={`stats-gauge__status stats-gauge__status--${tone}`}>{status.label}</p> : <p className="muted">—</p>}
      <p className="stats-gauge__detail">
        {formatNumber(part)} / {formatNumber(whole)} {unit}
      </p>
      {basis ? <p className="stats-gauge__basis">{basis}</p> : null}
      <p className="muted stats-gauge__objective">Objectif : {objective === 100 ? '100 %' : `≥ ${objective} %`}</p>
    </article>
  );
}
