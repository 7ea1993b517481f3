import type { TelesurvAccount } from '@fsm/contracts';
import { useId, useRef, useState, type CSSProperties } from 'react';
import { useTelesurvAgences } from '../api/get-telesurv-agences';
import { TELESURV_MESSAGES } from '../api/telesurv-messages';

/**
 * The agences_count cell: hovering or focusing it opens 'Agences affectées'
 * with the account's agencies, loaded on first opening ('Chargement…', then
 * the list or 'Aucune agence affectée', §2).
 */
export function AgencesPopover({ account }: { account: TelesurvAccount }) {
  const [position, setPosition] = useState<CSSProperties | null>(null);
  const open = position !== null;
  const anchorRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Fixed to the viewport, so the table's scroll container does not clip it.
  const setOpen = (next: boolean | ((was: boolean) => boolean)) => {
    const wanted = typeof next === 'function' ? next(open) : next;
    const rect = anchorRef.current?.getBoundingClientRect();
    setPosition(wanted ? { position: 'fixed', top: (rect?.bottom ?? 0) + 4, left: rect?.left ?? 0 } : null);
  };
  const agences = useTelesurvAgences(account.id, open);
  const assigned = (agences.data ?? []).filter((agence) => agence.assigned);

  return (
    <span className="popover-anchor" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        ref={anchorRef}
        type="button"
        className="count-button"
        aria-label={`Agences affectées à ${account.nom} : ${account.agences_count}`}
        aria-describedby={open ? id : undefined}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        {account.agences_count}
      </button>
      {open ? (
        <div id={id} role="tooltip" className="popover" style={position ?? undefined}>
          <p className="popover__title">Agences affectées</p>
          {agences.isPending ? (
            <p className="muted">{TELESURV_MESSAGES.loading}</p>
          ) : agences.isError ? (
            <p className="field__error">{TELESURV_MESSAGES.agencesLoadError}</p>
          ) : assigned.length === 0 ? (
            <p className="muted">{TELESURV_MESSAGES.noAgenceAssigned}</p>
          ) : (
            <ul className="popover__list">
              {assigned.map((agence) => (
                <li key={agence.id}>{agence.nom}</li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </span>
  );
}
