import type { ReactNode } from 'react';
import { TitledScreen } from './titled-screen';

/** Stand-in for a screen that is not built yet; replaced screen by screen. */
export function UnderConstruction({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <TitledScreen title={title}>
      {children}
      <div className="construction">
        <span className="construction__badge">Écran en construction</span>
        <p className="muted">Cet écran sera bientôt disponible.</p>
      </div>
    </TitledScreen>
  );
}
