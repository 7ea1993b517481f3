import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The element the app renders into; made inert while a dialog is open. */
const APP_ROOT_ID = 'root';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the panel, e.g. to widen it. */
  className?: string;
}

/**
 * Modal dialog: role dialog + aria-modal, labelled by its title, focus moved to
 * the first control of its content and kept in (Tab wraps), Escape and a
 * backdrop click close it, and focus goes back to whatever opened it. Rendered in a portal, with the app behind it made
 * inert so screen readers and clicks cannot reach it.
 */
export function Dialog({ open, ...rest }: DialogProps) {
  if (!open) return null;
  return createPortal(<DialogPanel {...rest} />, document.body);
}

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
}

function DialogPanel({ title, onClose, children, className }: Omit<DialogProps, 'open'>) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    // Start on the first field of the content rather than on the close button.
    const body = bodyRef.current;
    if (panel) ((body && focusableIn(body)[0]) ?? focusableIn(panel)[0] ?? panel).focus();

    const appRoot = document.getElementById(APP_ROOT_ID);
    const wasInert = appRoot?.hasAttribute('inert') ?? false;
    if (appRoot && !wasInert) appRoot.setAttribute('inert', '');
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    // A focused button that gets disabled or replaced (a pending save) drops the
    // focus to <body>, outside the panel: its keys would reach nothing. While
    // this is the topmost dialog, Escape still closes it and Tab comes back in.
    const onDocumentKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!panel || (document.activeElement !== document.body && document.activeElement !== null)) return;
      const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
      if (dialogs[dialogs.length - 1] !== panel) return;
      if (event.key === 'Escape') {
        onCloseRef.current();
      } else if (event.key === 'Tab') {
        event.preventDefault();
        ((body && focusableIn(body)[0]) ?? focusableIn(panel)[0] ?? panel).focus();
      }
    };
    document.addEventListener('keydown', onDocumentKeyDown);

    return () => {
      document.removeEventListener('keydown', onDocumentKeyDown);
      if (appRoot && !wasInert) appRoot.removeAttribute('inert');
      document.body.style.overflow = previousOverflow;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusableIn(panelRef.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        // Only a press that starts on the backdrop itself closes; text selection
        // that drags out of the panel does not.
        if (event.target === event.currentTarget) onCloseRef.current();
      }}
    >
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={className ? `dialog ${className}` : 'dialog'}
        onKeyDown={onKeyDown}
      >
        <div className="dialog__header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn btn--ghost" aria-label="Fermer" onClick={() => onCloseRef.current()}>
            <span aria-hidden="true">✕</span>
          </button>
        </div>
        <div ref={bodyRef} className="dialog__body">
          {children}
        </div>
      </div>
    </div>
  );
}
