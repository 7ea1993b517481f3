import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ForbiddenError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  PERMISSION_CATALOGUE,
  ValidationError,
  agenceOptionSchema,
  canAssignRole,
  forbiddenPermissionChanges,
  hasPermission,
  ifMatchHeadersSchema,
  isPermissionSlug,
  managementIdParamsSchema,
  managementResultResponseSchema,
  permissionCatalogueResponseSchema,
  resolveScopedAgenceId,
  userCreateBodySchema,
  userPermissionsBodySchema,
  userPermissionsResponseSchema,
  userSchema,
  userUpdateBodySchema,
  userStreamId,
  withEditVersion,
  type User,
} from '@fsm/contracts';
import { findAgence, findUserById, listAgences, listStaffUsers, type UserRow } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { inScope, principalOf, scopeOf, type Principal } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import { basisOf } from '../../commands/execute.js';
import { handleCreateStaffUser, handleDeleteStaffUser, handleSetUserPermissions, handleUpdateStaffUser } from '../../commands/user-commands.js';
import { actorOf } from '../actor.js';
import { editVersionOf, sendVersion } from '../edit-version.js';

const ROLE_FORBIDDEN = 'Vous ne pouvez pas attribuer ce rôle.';
const TARGET_ROLE_FORBIDDEN = 'Vous ne pouvez pas gérer un utilisateur de ce rôle.';
const permissionsForbidden = (slugs: readonly string[]) => `Vous ne pouvez pas attribuer ou retirer ces permissions : ${slugs.join(', ')}.`;
const AGENCE_INVALID = 'Agence invalide.';

/*
 * Users screen (management.md §6, docs/api-additions.md):
 * - users.view lists the users of one's scope with their details; admin_plus
 *   always may. Without it, staff still get the names of their own agency's
 *   users (technician pickers, filters) and télésurveillance accounts those of
 *   their assigned agencies: id, names, role, agency; never e-mail or phone.
 * - users.edit creates, edits and deletes; users.permissions sets permissions
 *   (admin_plus always). Outside admin_plus, writes stay in one's own agency,
 *   grant only the technician roles, touch only technicians (or oneself), and
 *   never grant or withdraw a permission one does not hold.
 */

const canViewUsers = (principal: Principal) => principal.role === 'admin_plus' || hasPermission(principal, 'users.view');

/** Details for users.view; names only for pickers. */
const userListItemSchema = userSchema.extend({ email: z.string().optional(), telephone: z.string().nullable().optional() });

/**
 * Outside admin_plus the form has no agency picker: a missing agence_id means
 * one's own agency (resolveScopedAgenceId), so it is optional at the door.
 */
const createBodySchema = userCreateBodySchema.partial({ agence_id: true });
const updateBodySchema = withEditVersion(userUpdateBodySchema.partial({ agence_id: true }));
const permissionsBodySchema = withEditVersion(userPermissionsBodySchema);

/**
 * `{ success, error }` answers (§7): a refusal carries `success: false` beside
 * the error, whatever produced it (the door, validation, decider).
 */
export async function failureCarriesSuccessFalse(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  try {
    const body: unknown = JSON.parse(payload);
    if (body && typeof body === 'object' && !Array.isArray(body) && !('success' in body)) return JSON.stringify({ success: false, ...body });
  } catch {
    // Not JSON: leave it.
  }
  return payload;
}

const toUser = (row: UserRow): User => ({
  id: row.id,
  nom: row.nom,
  prenom: row.prenom,
  email: row.email,
  telephone: row.telephone,
  role: row.role as User['role'],
  agence_id: row.agence_id,
  agence_nom: row.agence_nom,
  version: row.version,
});

const toPickerItem = (row: UserRow) => ({
  id: row.id,
  nom: row.nom,
  prenom: row.prenom,
  role: row.role as User['role'],
  agence_id: row.agence_id,
  agence_nom: row.agence_nom,
});

/** A live user of the caller's scope (télésurveillance accounts have no agency, so only admin_plus reaches them here). */
async function userInScope(deps: AppDeps, principal: Principal, id: string): Promise<UserRow> {
  const row = await findUserById(deps.pool, id);
  if (!row || !inScope(scopeOf(principal), row.agence_id)) throw new NotFoundError(M.userNotFound);
  return row;
}

/** Outside admin_plus one manages only the roles one may grant (technicians), and oneself. */
function requireManageable(principal: Principal, target: UserRow): void {
  if (principal.role === 'admin_plus' || target.id === principal.id) return;
  if (!canAssignRole(principal, target.role as User['role'])) throw new ForbiddenError(TARGET_ROLE_FORBIDDEN);
}

/** admin_plus picks any agency: it must exist. Others get theirs (resolveScopedAgenceId refuses another one). */
async function agenceForWrite(deps: AppDeps, principal: Principal, requested: string | undefined): Promise<string> {
  const agenceId = resolveScopedAgenceId(principal, requested);
  if (principal.role === 'admin_plus' && !(await findAgence(deps.pool, agenceId))) throw new ValidationError(AGENCE_INVALID);
  return agenceId;
}

export async function userRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = secured.withTypeProvider<ZodTypeProvider>();

  app.get('/api/utilisateurs', { schema: { response: { 200: z.array(userListItemSchema) } } }, async (request) => {
    const principal = principalOf(request);
    const rows = await listStaffUsers(deps.pool, scopeOf(principal));
    return canViewUsers(principal) ? rows.map(toUser) : rows.map(toPickerItem);
  });

  app.get('/api/utilisateurs/agences', { schema: { response: { 200: z.array(agenceOptionSchema) } } }, async (request) => {
    return (await listAgences(deps.pool, scopeOf(principalOf(request)))).map(({ id, nom }) => ({ id, nom }));
  });

  app.get('/api/utilisateurs/permissions-catalog', { schema: { response: { 200: permissionCatalogueResponseSchema } } }, async () =>
    PERMISSION_CATALOGUE.map(({ slug, label }) => ({ slug, label })),
  );

  app.post('/api/utilisateurs', { schema: { body: createBodySchema, response: { 201: userSchema } } }, async (request, reply) => {
    const principal = principalOf(request);
    const { motdepasse, ...body } = request.body;
    if (!canAssignRole(principal, body.role)) throw new ForbiddenError(ROLE_FORBIDDEN);
    const agence_id = await agenceForWrite(deps, principal, body.agence_id);
    const userId = deps.newId();
    await handleCreateStaffUser(commandCaller(deps, actorOf(request)), { userId, fields: { ...body, agence_id }, password: motdepasse });
    const row = await findUserById(deps.pool, userId);
    return reply.status(201).send(row ? toUser(row) : { id: userId, ...body, agence_id, agence_nom: null });
  });

  app.put(
    '/api/utilisateurs/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: updateBodySchema, response: { 200: userSchema } } },
    async (request, reply) => {
      const principal = principalOf(request);
      const target = await userInScope(deps, principal, request.params.id);
      requireManageable(principal, target);
      const { motdepasse, version, ...body } = request.body;
      // The role checks below read this row: the save lands on its version or not at all.
      const basis = basisOf(target, editVersionOf(request, version), userStreamId(target.id));
      if (body.role !== target.role && !canAssignRole(principal, body.role)) throw new ForbiddenError(ROLE_FORBIDDEN);
      const agence_id = await agenceForWrite(deps, principal, body.agence_id);
      // One's own password only with the old one (change-password): a session left open must not be enough to take the account.
      if (motdepasse !== undefined && target.id === principal.id) throw new ValidationError(M.ownPasswordThroughChange);
      const result = await handleUpdateStaffUser(commandCaller(deps, actorOf(request)), {
        userId: target.id,
        fields: { ...body, agence_id },
        password: motdepasse,
        basis,
      });
      sendVersion(reply, result.revision);
      const row = await findUserById(deps.pool, target.id);
      return row ? toUser(row) : { id: target.id, ...body, agence_id, agence_nom: null, version: result.revision };
    },
  );

  app.delete(
    '/api/utilisateurs/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: managementResultResponseSchema } } },
    async (request) => {
      const principal = principalOf(request);
      const target = await userInScope(deps, principal, request.params.id);
      requireManageable(principal, target);
      const basis = basisOf(target, editVersionOf(request), userStreamId(target.id));
      await handleDeleteStaffUser(commandCaller(deps, actorOf(request)), { userId: target.id, deletedBy: principal.id, basis });
      return { success: true };
    },
  );

  app.get(
    '/api/utilisateurs/:id/permissions',
    { schema: { params: managementIdParamsSchema, response: { 200: userPermissionsResponseSchema } } },
    async (request) => {
      const target = await userInScope(deps, principalOf(request), request.params.id);
      if (target.role === 'telesurveillance') throw new NotFoundError(M.userNotFound);
      return { permissions: target.permissions, version: target.version };
    },
  );

  app.put(
    '/api/utilisateurs/:id/permissions',
    {
      onSend: failureCarriesSuccessFalse,
      schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: permissionsBodySchema, response: { 200: managementResultResponseSchema } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const target = await userInScope(deps, principal, request.params.id);
      requireManageable(principal, target);
      // Who may withdraw what is judged on this row's set: the save lands on its version or not at all.
      const basis = basisOf(target, editVersionOf(request, request.body.version), userStreamId(target.id));
      const forbidden = forbiddenPermissionChanges(principal, target.permissions.filter(isPermissionSlug), request.body.permissions);
      if (forbidden.length > 0) throw new ForbiddenError(permissionsForbidden(forbidden));
      const result = await handleSetUserPermissions(commandCaller(deps, actorOf(request)), { userId: target.id, permissions: request.body.permissions, basis });
      sendVersion(reply, result.revision);
      return { success: true };
    },
  );
}
