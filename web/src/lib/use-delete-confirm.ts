import { useState } from 'react';

export interface DeleteConfirmOptions<Item> {
  /** Deletes the item; throws what the API answered. */
  remove: (item: Item) => Promise<unknown>;
  /** After the delete: the toast, and whatever the screen does next. */
  done: (item: Item) => void;
  /** The French text of a failed delete, shown in the dialog so it can be retried. */
  failureMessage: (error: unknown) => string;
}

/**
 * The delete that waits for its confirmation (management §5): `ask(item)`
 * opens the ConfirmDialog, which takes `dialog` as its props.
 */
export function useDeleteConfirm<Item>({ remove, done, failureMessage }: DeleteConfirmOptions<Item>) {
  const [target, setTarget] = useState<Item | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (target === null) return;
    setError(null);
    setBusy(true);
    try {
      await remove(target);
      done(target);
      setTarget(null);
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return {
    target,
    ask: (item: Item) => {
      setError(null);
      setTarget(item);
    },
    dialog: { open: target !== null, busy, error, onConfirm: () => void confirm(), onCancel: () => setTarget(null) },
  };
}
