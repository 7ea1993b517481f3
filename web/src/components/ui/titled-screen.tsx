import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';

/** A screen's frame: its title as the page heading and the document title, then its content. */
export function TitledScreen({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">{title}</h1>
      </div>
      {children}
    </section>
  );
}
