import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ForbiddenError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  agenceOptionSchema,
  ifMatchHeadersSchema,
  managementIdParamsSchema,
  managementResultResponseSchema,
  telesurvAccountsResponseSchema,
  telesurvAgenceAssignmentsResponseSchema,
  telesurvAgencesBodySchema,
  telesurvCreateBodySchema,
  telesurvUpdateBodySchema,
  userStreamId,
  withEditVersion,
} from '@fsm/contracts';
import { findUserById, listAgences, listTelesurvAccounts, type AgenceScope, type UserRow } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { inScope, principalOf, scopeOf, type Principal } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import { basisOf } from '../../commands/execute.js';
import { handleSetTelesurvAgences } from '../../commands/management/telesurv-commands.js';
import { handleCreateTelesurvAccount, handleDeleteTelesurvAccount, handleUpdateTelesurvAccount } from '../../commands/user-commands.js';
import { actorOf } from '../actor.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { failureCarriesSuccessFalse } from './user-routes.js';

/*
 * Remote-surveillance accounts (management.md §2, §4, §7): every route needs
 * telesurveillance.edit. Accounts span agencies, so a holder sees every
 * account; the agencies it lists, counts and assigns are those of its own
 * scope (all of them for admin_plus). The account itself reads its agencies
 * from /api/telesurv/me/agences.
 */

const createdResponseSchema = z.object({ success: z.literal(true), id: z.guid() });
const updateBodySchema = withEditVersion(telesurvUpdateBodySchema);
const agencesBodySchema = withEditVersion(telesurvAgencesBodySchema);

async function telesurvAccount(deps: AppDeps, id: string): Promise<UserRow> {
  const row = await findUserById(deps.pool, id);
  if (!row || row.role !== 'telesurveillance') throw new NotFoundError(M.telesurvNotFound);
  return row;
}

/**
 * An account also assigned to agencies outside the caller's scope is theirs
 * too: outside admin_plus, neither its password (a reset would let the caller
 * sign in as it and act in those agencies) nor its existence is the caller's
 * to change. Assignments to deleted agencies do not count: nothing is left to act on.
 * The list answers it per account (partage_hors_perimetre) so the screen does
 * not offer what the PUT and DELETE below refuse: one rule for both.
 */
function sharedOutsideScope(scope: AgenceScope, liveAgenceIds: ReadonlySet<string>, account: Pick<UserRow, 'telesurv_agence_ids'>): boolean {
  if (scope === 'all') return false;
  return account.telesurv_agence_ids.some((id) => liveAgenceIds.has(id) && !scope.includes(id));
}

async function liveAgenceIds(deps: AppDeps): Promise<Set<string>> {
  return new Set((await listAgences(deps.pool, 'all')).map((agence) => agence.id));
}

async function requireNotSharedOutsideScope(deps: AppDeps, principal: Principal, account: UserRow): Promise<void> {
  const scope = scopeOf(principal);
  // admin_plus is never refused: spare it the agencies query.
  if (scope === 'all') return;
  if (sharedOutsideScope(scope, await liveAgenceIds(deps), account)) throw new ForbiddenError(M.telesurvSharedOutsideScope);
}

export async function telesurvRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = secured.withTypeProvider<ZodTypeProvider>();
  const withResult = { onSend: failureCarriesSuccessFalse };

  app.get('/api/telesurv', { schema: { response: { 200: telesurvAccountsResponseSchema } } }, async (request) => {
    const scope = scopeOf(principalOf(request));
    const live = await liveAgenceIds(deps);
    const visible = new Set([...live].filter((id) => inScope(scope, id)));
    return (await listTelesurvAccounts(deps.pool)).map((row) => ({
      id: row.id,
      nom: row.nom,
      email: row.email,
      telephone: row.telephone,
      // Deleted agencies, and those the caller cannot see, do not count.
      agences_count: row.telesurv_agence_ids.filter((id) => visible.has(id)).length,
      version: row.version,
      partage_hors_perimetre: sharedOutsideScope(scope, live, row),
    }));
  });

  app.get('/api/telesurv/me/agences', { schema: { response: { 200: z.array(agenceOptionSchema) } } }, async (request) => {
    const principal = principalOf(request);
    return (await listAgences(deps.pool, principal.telesurvAgenceIds)).map(({ id, nom }) => ({ id, nom }));
  });

  app.post(
    '/api/telesurv',
    { ...withResult, schema: { body: telesurvCreateBodySchema, response: { 201: createdResponseSchema } } },
    async (request, reply) => {
      const { motdepasse, ...fields } = request.body;
      const userId = deps.newId();
      await handleCreateTelesurvAccount(commandCaller(deps, actorOf(request)), { userId, fields, password: motdepasse });
      return reply.status(201).send({ success: true as const, id: userId });
    },
  );

  app.put(
    '/api/telesurv/:id',
    {
      ...withResult,
      schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: updateBodySchema, response: { 200: managementResultResponseSchema } },
    },
    async (request, reply) => {
      const account = await telesurvAccount(deps, request.params.id);
      const { motdepasse, version, ...fields } = request.body;
      if (motdepasse !== undefined) await requireNotSharedOutsideScope(deps, principalOf(request), account);
      const basis = basisOf(account, editVersionOf(request, version), userStreamId(account.id));
      const result = await handleUpdateTelesurvAccount(commandCaller(deps, actorOf(request)), { userId: account.id, fields, password: motdepasse, basis });
      sendVersion(reply, result.revision);
      return { success: true };
    },
  );

  app.delete(
    '/api/telesurv/:id',
    { ...withResult, schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: managementResultResponseSchema } } },
    async (request) => {
      const account = await telesurvAccount(deps, request.params.id);
      await requireNotSharedOutsideScope(deps, principalOf(request), account);
      const basis = basisOf(account, editVersionOf(request), userStreamId(account.id));
      await handleDeleteTelesurvAccount(commandCaller(deps, actorOf(request)), { userId: account.id, basis });
      return { success: true };
    },
  );

  app.get(
    '/api/telesurv/:id/agences',
    { schema: { params: managementIdParamsSchema, response: { 200: telesurvAgenceAssignmentsResponseSchema } } },
    async (request, reply) => {
      const account = await telesurvAccount(deps, request.params.id);
      // A list: the account's version travels as the ETag, for If-Match on the save.
      sendVersion(reply, account.version);
      const assigned = new Set(account.telesurv_agence_ids);
      return (await listAgences(deps.pool, scopeOf(principalOf(request)))).map(({ id, nom }) => ({ id, nom, assigned: assigned.has(id) }));
    },
  );

  app.put(
    '/api/telesurv/:id/agences',
    {
      ...withResult,
      schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: agencesBodySchema, response: { 200: managementResultResponseSchema } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const account = await telesurvAccount(deps, request.params.id);
      const result = await handleSetTelesurvAgences(commandCaller(deps, actorOf(request)), {
        userId: account.id,
        agences: request.body.agences,
        current: account.telesurv_agence_ids,
        scope: scopeOf(principal),
        basis: basisOf(account, editVersionOf(request, request.body.version), userStreamId(account.id)),
      });
      sendVersion(reply, result.revision);
      return { success: true };
    },
  );
}
