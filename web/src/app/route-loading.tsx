import { Suspense, type ReactNode } from 'react';

/** What a route shows while its screen's code arrives (on-demand.tsx). */
export function RouteLoading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="muted boot-loading" role="status" aria-busy="true">
          Chargement…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
