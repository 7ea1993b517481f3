import { useEffect } from 'react';

const APP_NAME = 'Tickets de maintenance';

/** Sets the tab title to the screen's title, so tabs and history entries are recognisable. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
}
