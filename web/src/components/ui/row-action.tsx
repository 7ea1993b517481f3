import type { ReactNode } from 'react';

/**
 * A table row's small action button. The visible verb alone would be
 * ambiguous to a screen reader going through the buttons, so `label` names
 * the row it acts on ('Supprimer Agence Lyon').
 */
export function RowAction({
  label,
  onClick,
  danger = false,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  /** Deletes and removals get the red ghost style. */
  danger?: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="button" className={danger ? 'btn btn--small btn--danger-ghost' : 'btn btn--small'} onClick={onClick} disabled={disabled} aria-label={label}>
      {children}
    </button>
  );
}
