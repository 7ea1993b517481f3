import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';

/** The button beside a screen's title, e.g. '+ Ajouter un client'. */
interface ScreenAction {
  label: string;
  onClick: () => void;
}

/** A screen's frame: its title as the page heading and the document title, its action if any, then its content. */
export function TitledScreen({ title, action, children }: { title: string; action?: ScreenAction | null; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">{title}</h1>
        {action ? (
          <button type="button" className="btn btn--primary" onClick={action.onClick}>
            {action.label}
          </button>
        ) : null}
      </div>
      {children}
    </section>
  );
}
