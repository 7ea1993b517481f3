import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, scopeOf } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import type { ManagementCaller } from '../../commands/management/client-scope.js';
import { actorOf } from '../actor.js';

/*
 * Who may call the client-management routes (docs/api-additions.md, "Access";
 * enforced by the door, ROUTE_ACCESS in contracts):
 *
 * - Reading clients, sites, installations and contacts: every staff role, for
 *   their own agency (admin_plus: every agency). The ticket screens of every
 *   role need these lists (filters, the manual form's cascade, the detail's
 *   contact), so clients.view only opens the Clients screen itself.
 * - Télésurveillance accounts read, for their assigned agencies, only what their
 *   ticket form calls.
 * - Changing clients, sites, installations, contacts and QR code assignments:
 *   clients.edit (admin_plus always holds it).
 *
 * Ids outside the caller's agencies answer 404, like unknown ones.
 */

/** The caller of a management change whose role and permission the door (ROUTE_ACCESS) already checked, with the agencies it may change. */
export function callerOf(request: FastifyRequest, deps: AppDeps): ManagementCaller {
  const principal = principalOf(request);
  return { ...commandCaller(deps, actorOf(request)), user: principal, scope: scopeOf(principal) };
}

/** What DELETE routes answer. */
export const DELETED = { success: true as const };
