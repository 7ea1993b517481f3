import { useSyncExternalStore } from 'react';

/**
 * The signed-in session, kept in localStorage under `token` and `user` (spec §3)
 * so it survives reloads and is shared by every tab.
 *
 * This module is the only one that touches those keys. Everything else reads the
 * session through `getSession()` / `useSession()` and ends it through
 * `clearSession()`; listeners (cache reset, guards) react to the change.
 */

export const TOKEN_STORAGE_KEY = 'token';
export const USER_STORAGE_KEY = 'user';

const ROLES = ['admin_plus', 'admin', 'technicien_plus', 'technicien', 'telesurveillance'] as const;
type Role = (typeof ROLES)[number];

/** Ids are opaque to the web app: shown and sent back, never computed on. */
type EntityId = string | number;

export interface SessionUser {
  id: EntityId;
  role: Role;
  prenom: string;
  nom: string;
  agence_id: EntityId | null;
  agence_nom: string | null;
  permissions: string[];
}

export interface Session {
  token: string;
  user: SessionUser;
}

type Listener = () => void;

/**
 * Why the last session of this page ended: 'expired' when the server refused
 * the token (revoked, expired, account gone), so the login screen can say
 * 'Session expirée' instead of leaving the user wondering why they are there;
 * 'logout' when the user chose to leave here, so the login does not bring the
 * next person back to the page the previous one was on. Kept in memory: the
 * redirect to /login happens without a reload.
 */
let endReason: 'logout' | 'expired' | null = null;

const listeners = new Set<Listener>();

// useSyncExternalStore needs a stable snapshot: re-parse only when the raw
// strings in storage change.
let cachedRaw: { token: string | null; user: string | null } | undefined;
let cachedSession: Session | null = null;

function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

function isId(value: unknown): value is EntityId {
  return typeof value === 'string' || typeof value === 'number';
}

/** Reads a user as the server sends it; anything malformed means "no session". */
export function parseSessionUser(value: unknown): SessionUser | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!isId(v.id) || !isRole(v.role)) return null;
  if (typeof v.prenom !== 'string' || typeof v.nom !== 'string') return null;
  const permissions = Array.isArray(v.permissions)
    ? v.permissions.filter((p): p is string => typeof p === 'string')
    : [];
  return {
    id: v.id,
    role: v.role,
    prenom: v.prenom,
    nom: v.nom,
    agence_id: isId(v.agence_id) ? v.agence_id : null,
    agence_nom: typeof v.agence_nom === 'string' ? v.agence_nom : null,
    permissions,
  };
}

function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function getSession(): Session | null {
  const token = readStorage(TOKEN_STORAGE_KEY);
  const user = readStorage(USER_STORAGE_KEY);
  if (cachedRaw && cachedRaw.token === token && cachedRaw.user === user) return cachedSession;
  cachedRaw = { token, user };
  cachedSession = null;
  if (token && user) {
    try {
      const parsed = parseSessionUser(JSON.parse(user));
      if (parsed) {
        cachedSession = { token, user: parsed };
        // A live session again (login here or in another tab): the old one's end is history.
        endReason = null;
      }
    } catch {
      cachedSession = null;
    }
  }
  return cachedSession;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

function notify(): void {
  for (const listener of [...listeners]) listener();
}

export function saveSession(session: Session): void {
  endReason = null;
  window.localStorage.setItem(TOKEN_STORAGE_KEY, session.token);
  window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(session.user));
  notify();
}

export function sessionExpiredByServer(): boolean {
  return endReason === 'expired';
}

/** True when the user ended this page's session with 'Déconnexion'. */
export function sessionEndedByLogout(): boolean {
  return endReason === 'logout';
}

/**
 * Ends the session: removes both keys and tells every listener. `expired`
 * when the server refused the token, as opposed to the user logging out.
 */
export function clearSession(reason: 'logout' | 'expired' = 'logout'): void {
  endReason = reason;
  const hadSomething = readStorage(TOKEN_STORAGE_KEY) !== null || readStorage(USER_STORAGE_KEY) !== null;
  window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  window.localStorage.removeItem(USER_STORAGE_KEY);
  if (hadSomething) notify();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  // A logout or login in another tab changes storage there; follow it here.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === TOKEN_STORAGE_KEY || event.key === USER_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, () => null);
}
