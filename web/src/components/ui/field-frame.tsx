import { useId, type ReactNode } from 'react';

export interface FieldFrameProps {
  label: string;
  /** Shown under the field, linked with aria-describedby. */
  hint?: ReactNode;
  /** Error text for this field; marks it aria-invalid. */
  error?: string | null;
  /** Marks the field invalid without a text of its own (the message is elsewhere). */
  invalid?: boolean;
  required?: boolean | undefined;
}

/** The accessibility wiring a control needs from its frame. */
export interface FieldControlProps {
  id: string;
  required: boolean | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A field's error, announced when it appears; `id` is what the control's aria-describedby names. */
export function FieldError({ id, error }: { id: string | undefined; error: string | null | undefined }) {
  return error ? (
    <p id={id} className="field__error" role="alert">
      {error}
    </p>
  ) : null;
}

/**
 * Label, hint and error around one control, wired for assistive technologies;
 * `className` is added to the frame's, `after` comes below the error (a preview).
 */
export function FieldFrame({
  label,
  hint,
  error,
  invalid,
  required,
  className,
  after,
  children,
}: FieldFrameProps & { className?: string; after?: ReactNode; children: (control: FieldControlProps) => ReactNode }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      {/* The required star is drawn by CSS so it stays out of the label's text;
          screen readers announce `required` from the control itself. */}
      <label className={required ? 'field__label field__label--required' : 'field__label'} htmlFor={id}>
        {label}
      </label>
      {children({ id, required, 'aria-invalid': error || invalid ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      ) : null}
      <FieldError id={errorId} error={error} />
      {after}
    </div>
  );
}
