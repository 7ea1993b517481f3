import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'> {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  invalid?: boolean;
  children: ReactNode;
}

/** A labelled select with its hint and error wired like TextField. */
export function SelectField({ label, hint, error, invalid, required, children, ...select }: SelectFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className={required ? 'field__label field__label--required' : 'field__label'} htmlFor={id}>
        {label}
      </label>
      <select
        {...select}
        id={id}
        className="select"
        required={required}
        aria-invalid={error || invalid ? true : undefined}
        aria-describedby={describedBy}
      >
        {children}
      </select>
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

/**
 * A picker's options from a query: a first empty choice ('Chargement…' while
 * the list loads, then `placeholder`), then one per item, by name unless `nameOf` says.
 */
export function QueryOptions<Item extends { id: string; nom: string }>({
  query,
  placeholder,
  nameOf = (item) => item.nom,
}: {
  query: { isPending: boolean; data?: readonly Item[] | undefined };
  placeholder: string;
  nameOf?: (item: Item) => string;
}) {
  return (
    <>
      <option value="">{query.isPending ? 'Chargement…' : placeholder}</option>
      {(query.data ?? []).map((item) => (
        <option key={item.id} value={item.id}>
          {nameOf(item)}
        </option>
      ))}
    </>
  );
}
