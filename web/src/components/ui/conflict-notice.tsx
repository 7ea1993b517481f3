import { useState } from 'react';
import { EDIT_CONFLICT_MESSAGES, editConflictMessage, isEditConflict } from '../../lib/edit-conflict';
import { Banner } from './banner';

/**
 * What a dialog shows when its save was refused because the fiche changed
 * meanwhile: the message, a reminder that nothing typed was lost, and the way
 * to see the fiche's current values (which replace the typed ones).
 */
function ConflictNotice({ message, onReload, reloading = false }: { message: string; onReload: () => void; reloading?: boolean }) {
  return (
    <Banner tone="error">
      <p>{message}</p>
      <p>{EDIT_CONFLICT_MESSAGES.kept}</p>
      <button type="button" className="btn btn--small" onClick={onReload} disabled={reloading} aria-busy={reloading || undefined}>
        {EDIT_CONFLICT_MESSAGES.reload}
      </button>
    </Banner>
  );
}

/**
 * The conflict state of an edit dialog. `load` fetches the fiche as it is now
 * (null when it was deleted), `apply` puts it in the form with its version.
 * `caught(error)` is true when the error was a conflict, now shown by `notice`.
 */
export function useEditConflict<Fresh>(load: () => Promise<Fresh | null | undefined>, apply: (fresh: Fresh) => void) {
  const [message, setMessage] = useState<string | null>(null);
  const [gone, setGone] = useState(false);
  const [reloading, setReloading] = useState(false);

  const caught = (error: unknown): boolean => {
    if (!isEditConflict(error)) return false;
    setMessage(editConflictMessage(error));
    return true;
  };

  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await load();
      if (fresh === null || fresh === undefined) {
        setGone(true);
        return;
      }
      apply(fresh);
      setMessage(null);
    } catch {
      // The notice stays: the user may try again.
    } finally {
      setReloading(false);
    }
  };

  const notice = gone ? (
    <Banner tone="error">{EDIT_CONFLICT_MESSAGES.gone}</Banner>
  ) : message ? (
    <ConflictNotice message={message} onReload={() => void reload()} reloading={reloading} />
  ) : null;

  return { caught, notice, clear: () => setMessage(null), active: message !== null || gone };
}
