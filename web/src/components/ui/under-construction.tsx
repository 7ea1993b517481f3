import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';

/** Stand-in for a screen that is not built yet; replaced screen by screen. */
export function UnderConstruction({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">{title}</h1>
      </div>
      {children}
      <div className="construction">
        <span className="construction__badge">Écran en construction</span>
        <p className="muted">Cet écran sera bientôt disponible.</p>
      </div>
    </section>
  );
}
