import { AGENCE_DAY_LABELS, setAgenceHalfDay, type AgenceHoraire, type AgenceWorkingDay } from '@fsm/contracts';

type Half = 'morning' | 'afternoon';
const HALF_LABELS: Record<Half, string> = { morning: 'Matin', afternoon: 'Après-midi' };

function hoursOf(day: AgenceHoraire, half: Half): string | null {
  const open = half === 'morning' ? day.morning_open : day.afternoon_open;
  const close = half === 'morning' ? day.morning_close : day.afternoon_close;
  return open && close ? `${open}–${close}` : null;
}

/**
 * Monday to Friday, a morning and an afternoon box per day (§2). Ticking opens
 * the half-day at its default hours, unticking stores null (§4,
 * setAgenceHalfDay).
 */
export function HorairesFieldset({
  week,
  onChange,
  disabled,
}: {
  week: readonly AgenceHoraire[];
  onChange: (week: AgenceHoraire[]) => void;
  disabled?: boolean;
}) {
  const toggle = (index: number, half: Half, open: boolean) => {
    onChange(week.map((day, i) => (i === index ? setAgenceHalfDay(day, half, open) : day)));
  };
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Horaires d'ouverture</legend>
      <table className="horaires-table">
        <thead>
          <tr>
            <th scope="col">Jour</th>
            <th scope="col">{HALF_LABELS.morning}</th>
            <th scope="col">{HALF_LABELS.afternoon}</th>
          </tr>
        </thead>
        <tbody>
          {week.map((day, index) => {
            const dayLabel = AGENCE_DAY_LABELS[day.day_of_week as AgenceWorkingDay] ?? `Jour ${day.day_of_week}`;
            return (
              <tr key={day.day_of_week}>
                <th scope="row">{dayLabel}</th>
                {(['morning', 'afternoon'] as const).map((half) => {
                  const hours = hoursOf(day, half);
                  return (
                    <td key={half}>
                      <label className="horaires-table__cell">
                        <input
                          type="checkbox"
                          className="checkbox"
                          checked={hours !== null}
                          disabled={disabled}
                          aria-label={`${dayLabel} ${HALF_LABELS[half].toLowerCase()}`}
                          onChange={(event) => toggle(index, half, event.target.checked)}
                        />
                        <span className={hours ? undefined : 'muted'}>{hours ?? 'Fermé'}</span>
                      </label>
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </fieldset>
  );
}
