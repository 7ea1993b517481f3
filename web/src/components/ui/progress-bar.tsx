export type ProgressColour = 'green' | 'yellow' | 'orange' | 'red';

/** A 0 to 100 meter for assistive technologies: its name, its value (none: unknown) and the words that say it. */
export function meterProps(label: string, value: number | undefined, text: string) {
  return { role: 'meter', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': value, 'aria-valuetext': text } as const;
}

/**
 * A thin coloured bar (deadline, quote countdown). Colour never carries the
 * meaning alone (UI.md): `text` says it in words next to the bar, and the bar
 * is a labelled meter for assistive technologies.
 */
export function ProgressBar({
  label,
  percent,
  colour,
  text,
}: {
  label: string;
  /** 0 to 100. */
  percent: number;
  colour: ProgressColour;
  text: string;
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="progress">
      <div className="progress__track" {...meterProps(label, value, text)}>
        <span className={`progress__fill progress__fill--${colour}`} style={{ width: `${value}%` }} />
      </div>
      <span className="progress__text">{text}</span>
    </div>
  );
}
