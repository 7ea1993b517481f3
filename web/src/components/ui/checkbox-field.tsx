import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'type'> {
  label: ReactNode;
  hint?: ReactNode;
}

/** A checkbox with its label after it, the whole line clickable. */
export function CheckboxField({ label, hint, ...input }: CheckboxFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="checkbox-field">
      <input {...input} id={id} type="checkbox" className="checkbox" aria-describedby={hintId} />
      <label htmlFor={id} className="checkbox-field__label">
        {label}
      </label>
      {hint ? (
        <div id={hintId} className="field__hint checkbox-field__hint">
          {hint}
        </div>
      ) : null}
    </div>
  );
}
