import { useEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const PRINTING_CLASS = 'has-print-sheet';

/**
 * Content that replaces the page when printed. Rendered in a portal straight
 * under <body>; while it is mounted, `@media print` hides every other child of
 * <body> (the app, dialogs, toasts), so the printout is the sheet alone.
 * `screenHidden` keeps it off the screen (a print-only copy).
 */
export function PrintSheet({ children, screenHidden = false, label }: { children: ReactNode; screenHidden?: boolean; label: string }) {
  useEffect(() => {
    document.body.classList.add(PRINTING_CLASS);
    return () => document.body.classList.remove(PRINTING_CLASS);
  }, []);
  return createPortal(
    <div
      className={screenHidden ? 'print-root print-root--print-only' : 'print-root'}
      // A print-only copy repeats what the screen already shows: kept out of the accessibility tree.
      aria-hidden={screenHidden || undefined}
      aria-label={screenHidden ? undefined : label}
      role={screenHidden ? undefined : 'region'}
    >
      {children}
    </div>,
    document.body,
  );
}
