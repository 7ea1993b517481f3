import type { FastifyRequest } from 'fastify';
import { ACCESS_REFUSAL_MESSAGES, ForbiddenError, UnauthorizedError, hasPermission, type PermissionSlug, type SessionUser } from '@fsm/contracts';
import type { AgenceScope, Queryable, UserRow } from '@fsm/projections';
import { findUserWithTokenVersion } from './credentials.js';
import { SESSION_EXPIRED, bearerToken, tokenHash, type TokenService } from './tokens.js';

/** What resolving a session needs: the users read model and the token service (not the whole app). */
export interface AuthDeps {
  pool: Queryable;
  tokens: TokenService;
}

/** The authenticated caller, read fresh from the users read model on each request. */
export interface Principal extends SessionUser {
  email: string;
  /** Agencies a télésurveillance account acts for (empty for staff). */
  telesurvAgenceIds: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function toSessionUser(row: UserRow): SessionUser {
  return {
    id: row.id,
    role: row.role as SessionUser['role'],
    prenom: row.prenom,
    nom: row.nom,
    agence_id: row.agence_id,
    agence_nom: row.agence_nom,
    permissions: row.permissions,
  };
}

/** Resolves the bearer token to a principal; 401 'Session expirée' otherwise. */
export async function authenticate(request: FastifyRequest, deps: AuthDeps): Promise<Principal> {
  return principalFromToken(bearerToken(request.headers.authorization), deps);
}

/**
 * A session token → the principal; 401 'Session expirée' when the token is
 * missing, forged, expired, issued before the last password change, ended by
 * Déconnexion, or its user is gone.
 */
export async function principalFromToken(token: string | undefined, deps: AuthDeps): Promise<Principal> {
  if (!token) throw new UnauthorizedError(SESSION_EXPIRED);
  const { sub, ver } = await deps.tokens.verify(token);
  return principalOfUser(sub, deps, ver ?? 0, tokenHash(token));
}

/**
 * The principal of a user id whose credential version must be `version` (or
 * any, when null) and, when `revocable` is given, whose token was not revoked.
 */
export async function principalOfUser(userId: string, deps: AuthDeps, version: number | null, revocable: Buffer | null = null): Promise<Principal> {
  const row = await findUserWithTokenVersion(deps.pool, userId, revocable);
  if (!row || row.revoked || (version !== null && row.token_version !== version)) throw new UnauthorizedError(SESSION_EXPIRED);
  return { ...toSessionUser(row), email: row.email, telesurvAgenceIds: row.telesurv_agence_ids };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError(SESSION_EXPIRED);
  return request.principal;
}

/**
 * 403 unless the caller holds the permission (admin_plus implications included).
 * Only for what depends on the data (a body field, an export's kind): the door
 * (ROUTE_ACCESS) already checked the route's own permission.
 */
export function requirePermission(principal: Principal, ...anyOf: PermissionSlug[]): void {
  if (!anyOf.some((slug) => hasPermission(principal, slug))) throw new ForbiddenError(ACCESS_REFUSAL_MESSAGES.default);
}

/**
 * 403 for télésurveillance accounts: they see only their ticket form. Only for
 * routes that authenticate themselves (a download link's ?token=), which the door does not check.
 */
export function requireStaff(principal: Principal): void {
  if (principal.role === 'telesurveillance') throw new ForbiddenError(ACCESS_REFUSAL_MESSAGES.default);
}

/** Agencies whose data the caller may read. */
export function scopeOf(principal: Principal): AgenceScope {
  if (principal.role === 'admin_plus') return 'all';
  if (principal.role === 'telesurveillance') return principal.telesurvAgenceIds;
  return principal.agence_id ? [principal.agence_id] : [];
}

export function inScope(scope: AgenceScope, agenceId: string | null | undefined): boolean {
  if (scope === 'all') return true;
  return agenceId !== null && agenceId !== undefined && scope.includes(agenceId);
}

export function displayName(principal: Pick<Principal, 'prenom' | 'nom'>): string {
  return [principal.prenom, principal.nom].filter((part) => part.length > 0).join(' ');
}
