import { Banner } from './banner';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question, e.g. 'Supprimer ce métier ?'. */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Destructive actions (deletes) get the red button. */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  /** The failure of the confirmed action, shown in the dialog so it can be retried. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The confirmation that precedes every delete (management §5). A modal
 * dialog rather than `window.confirm`, so it is styled, announced and
 * testable; focus starts on Annuler, the safe choice.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Supprimer',
  cancelLabel = 'Annuler',
  tone = 'danger',
  busy = false,
  error,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} title={title} onClose={busy ? () => undefined : onCancel}>
      <p>{message}</p>
      {error ? <Banner tone="error">{error}</Banner> : null}
      <div className="dialog__actions">
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={tone === 'danger' ? 'btn btn--danger' : 'btn btn--primary'}
          onClick={onConfirm}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
