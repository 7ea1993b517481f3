import { AGENCE_DAY_LABELS, setAgenceHalfDay, type AgenceHoraire, type AgenceWorkingDay } from '@fsm/contracts';
import { Fragment, useId } from 'react';
import { FieldError } from '../../../components/ui/field-frame';
import type { FieldErrors } from '../../../lib/form-errors';

type Half = 'morning' | 'afternoon';
type Edge = 'open' | 'close';
const HALF_LABELS: Record<Half, string> = { morning: 'Matin', afternoon: 'Après-midi' };
const EDGE_LABELS: Record<Edge, string> = { open: 'ouverture', close: 'fermeture' };

const timeKey = (half: Half, edge: Edge) => `${half}_${edge}` as const;

/**
 * Monday to Friday, a morning and an afternoon half-day per day (§2), the gap
 * between them being the midday break. Ticking opens the half-day at its
 * default hours, unticking stores null (§4, setAgenceHalfDay); a ticked
 * half-day shows its opening and closing times, which the agency may set to
 * any HH:mm (issue 18). `errors` are keyed `<day index>.<field>`, as
 * checkForm(agenceHorairesBodySchema) gives them, so each message sits under
 * the half-day it concerns.
 */
export function HorairesFieldset({
  week,
  onChange,
  disabled,
  errors = {},
}: {
  week: readonly AgenceHoraire[];
  onChange: (week: AgenceHoraire[]) => void;
  disabled?: boolean;
  errors?: FieldErrors;
}) {
  const id = useId();
  const change = (index: number, next: (day: AgenceHoraire) => AgenceHoraire) => onChange(week.map((day, i) => (i === index ? next(day) : day)));
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
                  const name = `${dayLabel} ${HALF_LABELS[half].toLowerCase()}`;
                  const open = day[timeKey(half, 'open')];
                  const close = day[timeKey(half, 'close')];
                  const ticked = open !== null || close !== null;
                  const errorOf = (edge: Edge) => errors[`${index}.${timeKey(half, edge)}`];
                  const error = errorOf('open') ?? errorOf('close');
                  const errorId = error ? `${id}-${index}-${half}-error` : undefined;
                  return (
                    <td key={half}>
                      <div className="horaires-half">
                        <label className="horaires-half__toggle">
                          <input
                            type="checkbox"
                            className="checkbox"
                            checked={ticked}
                            disabled={disabled}
                            aria-label={name}
                            onChange={(event) => change(index, (d) => setAgenceHalfDay(d, half, event.target.checked))}
                          />
                          <span className="horaires-half__name" aria-hidden="true">
                            {HALF_LABELS[half]}
                          </span>
                          {ticked ? null : <span className="muted">Fermé</span>}
                        </label>
                        {ticked ? (
                          <span className="horaires-half__times">
                            {(['open', 'close'] as const).map((edge) => (
                              <Fragment key={edge}>
                                {edge === 'close' ? <span aria-hidden="true">–</span> : null}
                                <input
                                  type="time"
                                  className="input horaires-half__time"
                                  // '' while the user is still typing; the check on save says both are needed.
                                  value={(edge === 'open' ? open : close) ?? ''}
                                  disabled={disabled}
                                  required
                                  aria-label={`${name}, ${EDGE_LABELS[edge]}`}
                                  aria-invalid={errorOf(edge) ? true : undefined}
                                  aria-describedby={errorOf(edge) ? errorId : undefined}
                                  onChange={(event) => change(index, (d) => ({ ...d, [timeKey(half, edge)]: event.target.value === '' ? null : event.target.value }))}
                                />
                              </Fragment>
                            ))}
                          </span>
                        ) : null}
                      </div>
                      <FieldError id={errorId} error={error} />
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
