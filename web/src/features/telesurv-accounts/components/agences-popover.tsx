import type { TelesurvAccount } from '@fsm/contracts';
import { useId, useRef, useState, type CSSProperties } from 'react';
import { useTelesurvAgences } from '../api/get-telesurv-agences';
import { TELESURV_MESSAGES } from '../api/telesurv-messages';

/** Room the popover needs beside its anchor (its min-width, 14rem, and a margin). */
const POPOVER_ROOM_PX = 240;

/**
 * Fixed to the viewport, so the table's scroll container does not clip it;
 * beside the count, level with its row, rather than below it, where it hid the
 * next row's buttons (issue 18). It is a tooltip: clicks go through it.
 */
export function besideAnchor(rect: Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right'> | undefined, viewportWidth = window.innerWidth): CSSProperties {
  const { top = 0, bottom = 0, left = 0, right = 0 } = rect ?? {};
  const base: CSSProperties = { position: 'fixed', pointerEvents: 'none' };
  if (right + 8 + POPOVER_ROOM_PX <= viewportWidth) return { ...base, top, left: right + 8 };
  if (left - 8 - POPOVER_ROOM_PX >= 0) return { ...base, top, right: viewportWidth - left + 8 };
  // A phone has room on neither side: below, kept on screen; clicks still go through.
  return { ...base, top: bottom + 4, left: Math.max(8, Math.min(left, viewportWidth - POPOVER_ROOM_PX - 8)) };
}

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
  const setOpen = (next: boolean | ((was: boolean) => boolean)) => {
    const wanted = typeof next === 'function' ? next(open) : next;
    setPosition(wanted ? besideAnchor(anchorRef.current?.getBoundingClientRect()) : null);
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
