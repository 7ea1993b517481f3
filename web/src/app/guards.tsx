import { Navigate, Outlet, useLocation } from 'react-router';
import type { ReactNode } from 'react';
import { AccessDenied } from '../components/ui/access-denied';
import { sessionEndedByLogout, useSession, type SessionUser } from '../lib/session';
import { TELESURV_HOME, isTelesurveillance } from '../lib/access';
import { loginPathFor } from '../features/auth/return-path';

/**
 * Signed-out users go to /login, whatever they asked for; the page they were
 * on (a deep link, or the screen where the server ended the session) rides
 * along so the login brings them back to it. Not after 'Déconnexion': whoever
 * signs in next starts from their own home.
 */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to={sessionEndedByLogout() ? '/login' : loginPathFor(location)} replace />;
  return <Outlet />;
}

/** The signed-in user; only valid under <RequireSession>. */
export function useCurrentUser(): SessionUser {
  const session = useSession();
  if (!session) throw new Error('useCurrentUser outside <RequireSession>');
  return session.user;
}

/** Telesurveillance accounts only get their ticket form: everything else sends them there. */
export function StaffOnly() {
  const user = useCurrentUser();
  if (isTelesurveillance(user)) return <Navigate to={TELESURV_HOME} replace />;
  return <Outlet />;
}

/** The telesurveillance ticket form; anyone else goes home. */
export function TelesurveillanceOnly() {
  const user = useCurrentUser();
  if (!isTelesurveillance(user)) return <Navigate to="/" replace />;
  return <Outlet />;
}

/**
 * A management screen: without its permission the user sees the screen's title
 * and 'Accès refusé.' (management §2), never a silent trip to the home screen.
 */
export function RequireAccess({ title, allowed, children }: { title: string; allowed: (user: SessionUser) => boolean; children: ReactNode }) {
  const user = useCurrentUser();
  if (!allowed(user)) return <AccessDenied title={title} />;
  return children;
}
