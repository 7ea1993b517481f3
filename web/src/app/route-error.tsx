import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Last resort when a screen throws while rendering or loading. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main className="auth-page">
      <div className="card auth-card" role="alert">
        <h1>Une erreur est survenue</h1>
        <p className="muted">L’écran n’a pas pu s’afficher{detail ? ` (${detail})` : ''}.</p>
        <button type="button" className="btn btn--primary" onClick={() => window.location.reload()}>
          Recharger la page
        </button>
      </div>
    </main>
  );
}
