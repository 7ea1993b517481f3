import type { FastifyRequest } from 'fastify';
import { ForbiddenError, type PermissionSlug } from '@fsm/contracts';
import type { AgenceScope } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { ACCESS_DENIED, principalOf, requirePermission, requireStaff, scopeOf, type Principal } from '../../auth/principal.js';
import { commandContext } from '../../commands/command-context.js';
import type { ManagementCaller } from '../../commands/management/client-scope.js';
import { actorOf } from '../actor.js';

/*
 * Who may call the client-management routes (docs/api-additions.md, "Access"):
 *
 * - Reading clients, sites, installations and contacts: every staff role, for
 *   their own agency (admin_plus: every agency). The ticket screens of every
 *   role need these lists (filters, the manual form's cascade, the detail's
 *   contact), so clients.view only opens the Clients screen itself.
 * - Télésurveillance accounts read, for their assigned agencies, only what their
 *   ticket form calls (`telesurveillance: true` on those routes).
 * - Changing clients, sites, installations, contacts and QR code assignments:
 *   clients.edit (admin_plus always holds it).
 *
 * Ids outside the caller's agencies answer 404, like unknown ones.
 */

/** The agencies a reader may see; 403 for télésurveillance where its form does not call the route. */
export function readScope(request: FastifyRequest, options: { telesurveillance: boolean } = { telesurveillance: false }): AgenceScope {
  const principal = principalOf(request);
  if (!options.telesurveillance) requireStaff(principal);
  return scopeOf(principal);
}

/** 403 unless a staff member holds one of the slugs. */
export function requireStaffPermission(request: FastifyRequest, ...anyOf: PermissionSlug[]): Principal {
  const principal = principalOf(request);
  requireStaff(principal);
  requirePermission(principal, ...anyOf);
  return principal;
}

/** The caller of a client-management change (clients.edit), with the agencies it may change. */
export function editorOf(request: FastifyRequest, deps: AppDeps): ManagementCaller {
  return callerOf(request, deps, requireStaffPermission(request, 'clients.edit'));
}

/** Handler input for a caller whose permission the route already checked. */
export function callerOf(request: FastifyRequest, deps: AppDeps, principal: Principal = principalOf(request)): ManagementCaller {
  if (principal.role === 'telesurveillance') throw new ForbiddenError(ACCESS_DENIED);
  return {
    context: commandContext(deps),
    db: deps.pool,
    actor: actorOf(request),
    user: principal,
    scope: scopeOf(principal),
    now: deps.clock(),
  };
}

/** What DELETE routes answer. */
export const DELETED = { success: true as const };
