import type { Ticket } from '@fsm/contracts';
import { useEffect, useRef, useState } from 'react';
import type { VisitMode } from '../api/record-visit';
import { clearDraft, draftKey, loadDraft, newDraft, saveDraft, type VisitDraft } from '../visit-draft';

/**
 * The visit draft's whole life on this device: the one the wizard edits (saved
 * on every change until the visit is sent) and the one left behind, which the
 * detail offers to resume or discard.
 */
export function useVisitDraft(
  userId: string | number,
  ticket: Pick<Ticket, 'id' | 'id_technicien' | 'arrive_at'>,
  active: boolean,
  /** The technician a new draft names: the signed-in user when they are in the list, else the ticket's (issue 32). */
  technicienId: string | null = ticket.id_technicien,
) {
  const storageKey = draftKey(userId, ticket.id);
  const [editing, setEditing] = useState<VisitDraft | null>(null);
  const [stored, setStored] = useState<VisitDraft | null>(() => loadDraft(storageKey));
  // Once the visit is sent, the done screen may still touch the draft: it is not saved again.
  const sentRef = useRef(false);

  const show = (draft: VisitDraft) => {
    sentRef.current = false;
    setEditing(draft);
  };

  // A reload in the middle of the wizard opens it again where it was; a draft
  // left on a ticket that is no longer open is of no use.
  useEffect(() => {
    const found = loadDraft(storageKey);
    if (!found) return;
    if (!active) {
      clearDraft(storageKey);
      setStored(null);
      return;
    }
    if (found.open) show(found);
    // Only when the ticket (or its status) changes, not on every render.
  }, [storageKey, active]);

  return {
    editing,
    stored,
    open(mode: VisitMode) {
      const existing = loadDraft(storageKey);
      const draft = existing && existing.mode === mode ? { ...existing, open: true } : newDraft(mode, technicienId, new Date(), ticket.arrive_at);
      saveDraft(storageKey, draft);
      show(draft);
    },
    update(patch: Partial<VisitDraft>) {
      setEditing((current) => {
        if (!current) return current;
        const next = { ...current, ...patch };
        if (!sentRef.current) saveDraft(storageKey, next);
        return next;
      });
    },
    sent() {
      sentRef.current = true;
      clearDraft(storageKey);
    },
    /** Closes the wizard; the draft stays (marked closed) unless the visit was sent. */
    close() {
      const found = loadDraft(storageKey);
      if (found) saveDraft(storageKey, { ...found, open: false });
      setStored(loadDraft(storageKey));
      setEditing(null);
    },
    discard() {
      clearDraft(storageKey);
      setStored(null);
    },
  };
}
