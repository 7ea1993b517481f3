import type { FormEvent, ReactNode } from 'react';
import { Banner } from './banner';
import { Dialog } from './dialog';

export interface FormActionsProps {
  /** The save is under way: the submit button is disabled and says so. */
  busy: boolean;
  onCancel: () => void;
  submitLabel?: string;
  /** What the submit button reads while busy (its label when absent). */
  busyLabel?: string;
  /** False keeps the submit button disabled (a required choice not made yet). */
  canSubmit?: boolean;
  /** Ticket dialogs may be left while their command runs; management forms wait for their save. */
  cancelWhileBusy?: boolean;
  /** A dialog without a form (a list of boxes to tick): the primary button calls this instead of submitting. */
  onConfirm?: () => void;
}

/** Annuler and the submit button that end every form. */
export function FormActions({ busy, onCancel, submitLabel = 'Enregistrer', busyLabel, canSubmit = true, cancelWhileBusy = false, onConfirm }: FormActionsProps) {
  return (
    <div className="dialog__actions">
      <button type="button" className="btn" onClick={onCancel} disabled={busy && !cancelWhileBusy}>
        Annuler
      </button>
      <button type={onConfirm ? 'button' : 'submit'} className="btn btn--primary" onClick={onConfirm} disabled={busy || !canSubmit} aria-busy={busy || undefined}>
        {busy && busyLabel ? busyLabel : submitLabel}
      </button>
    </div>
  );
}

/** The end of a dialog that only shows something: its own buttons (`children`), then the primary one that closes it. */
export function CloseActions({ label = 'Fermer', onClose, children }: { label?: string; onClose: () => void; children?: ReactNode }) {
  return (
    <div className="dialog__actions">
      {children}
      <button type="button" className="btn btn--primary" onClick={onClose}>
        {label}
      </button>
    </div>
  );
}

export interface FormDialogProps extends Omit<FormActionsProps, 'onCancel'> {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  /** The last save's failure, in French. */
  failure?: string | null;
  /** The edit-conflict notice (useEditConflict), under the failure. */
  notice?: ReactNode;
  /** Extra class on the dialog, e.g. to widen it. */
  className?: string;
  children: ReactNode;
}

/**
 * A dialog holding one form: its fields, then the failure of the last save,
 * the conflict notice and the actions. The browser's own validation is off:
 * the contracts' schemas give the French messages.
 */
export function FormDialog({ title, onClose, onSubmit, failure, notice, className, children, ...actions }: FormDialogProps) {
  return (
    <Dialog open title={title} onClose={onClose} className={className}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        {children}
        {failure ? <Banner tone="error">{failure}</Banner> : null}
        {notice}
        <FormActions onCancel={onClose} {...actions} />
      </form>
    </Dialog>
  );
}
