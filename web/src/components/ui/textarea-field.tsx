import { useId, type ReactNode, type TextareaHTMLAttributes } from 'react';

export interface TextareaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'> {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  invalid?: boolean;
}

/** A labelled multi-line field with its hint and error wired like TextField. */
export function TextareaField({ label, hint, error, invalid, required, ...textarea }: TextareaFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className={required ? 'field__label field__label--required' : 'field__label'} htmlFor={id}>
        {label}
      </label>
      <textarea
        rows={4}
        {...textarea}
        id={id}
        className="textarea"
        required={required}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint ? (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
