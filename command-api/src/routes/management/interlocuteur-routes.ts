import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ifMatchHeadersSchema,
  interlocuteurBodySchema,
  interlocuteurSchema,
  interlocuteursResponseSchema,
  managementIdParamsSchema,
  toInterlocuteurAffectations,
  withEditVersion,
  type Interlocuteur,
  type InterlocuteurEvent,
} from '@fsm/contracts';
import {
  findClient,
  findInstallation,
  findInterlocuteur,
  findSite,
  listInterlocuteursByClient,
  listInterlocuteursByInstallation,
  listInterlocuteursBySite,
  listInterlocuteursBySiteOnly,
} from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, scopeOf } from '../../auth/principal.js';
import type { CommandResult } from '../../commands/execute.js';
import { handleCreateInterlocuteur, handleDeleteInterlocuteur, handleUpdateInterlocuteur } from '../../commands/management/interlocuteur-commands.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { DELETED, callerOf } from './client-access.js';

const DeletedResponse = z.object({ success: z.literal(true) });
const interlocuteurEditBodySchema = withEditVersion(interlocuteurBodySchema);

async function interlocuteurAnswer(deps: AppDeps, interlocuteurId: string, result: CommandResult<InterlocuteurEvent>): Promise<Interlocuteur> {
  const row = await findInterlocuteur(deps.pool, interlocuteurId);
  if (row) {
    const { agence_id: _agenceId, ...interlocuteur } = row;
    return interlocuteur;
  }
  const last = result.events.at(-1);
  if (!last || last.type === 'InterlocuteurDeleted') throw new NotFoundError(M.interlocuteurNotFound);
  const { clientId, nom, prenom, fonction, telephone, email, siteIds, installationIds } = last.data;
  return {
    id: interlocuteurId,
    client_id: clientId,
    nom,
    prenom,
    fonction,
    telephone,
    email,
    affectations: toInterlocuteurAffectations(siteIds, installationIds),
    nb_sites: siteIds.length,
    nb_installations: installationIds.length,
    version: result.revision,
  };
}

/**
 * Contacts by level. The télésurveillance form and the ticket detail pick the
 * most specific level (installation, then site, then client); the manual form
 * merges site-only and installation. Each parent must be in the caller's
 * agencies, else 404.
 */
export async function interlocuteurRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const listOptions = { schema: { params: managementIdParamsSchema, response: { 200: interlocuteursResponseSchema } } };

  api.get('/api/interlocuteurs/installation/:id', listOptions, async (request) => {
    const scope = scopeOf(principalOf(request));
    if (!(await findInstallation(deps.pool, request.params.id, scope))) throw new NotFoundError(M.installationNotFound);
    return listInterlocuteursByInstallation(deps.pool, request.params.id, scope);
  });

  api.get('/api/interlocuteurs/site/:id', listOptions, async (request) => {
    const scope = scopeOf(principalOf(request));
    if (!(await findSite(deps.pool, request.params.id, scope))) throw new NotFoundError(M.siteNotFound);
    return listInterlocuteursBySite(deps.pool, request.params.id, scope);
  });

  api.get('/api/interlocuteurs/site-only/:id', listOptions, async (request) => {
    const scope = scopeOf(principalOf(request));
    if (!(await findSite(deps.pool, request.params.id, scope))) throw new NotFoundError(M.siteNotFound);
    return listInterlocuteursBySiteOnly(deps.pool, request.params.id, scope);
  });

  api.get('/api/interlocuteurs/client/:id', listOptions, async (request) => {
    const scope = scopeOf(principalOf(request));
    if (!(await findClient(deps.pool, request.params.id, scope))) throw new NotFoundError(M.clientNotFound);
    return listInterlocuteursByClient(deps.pool, request.params.id, scope);
  });

  api.post('/api/interlocuteurs', { schema: { body: interlocuteurBodySchema, response: { 201: interlocuteurSchema } } }, async (request, reply) => {
    const interlocuteurId = deps.newId();
    const result = await handleCreateInterlocuteur(callerOf(request, deps), { interlocuteurId, fields: request.body });
    sendVersion(reply, result.revision);
    return reply.status(201).send(await interlocuteurAnswer(deps, interlocuteurId, result));
  });

  api.put(
    '/api/interlocuteurs/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: interlocuteurEditBodySchema, response: { 200: interlocuteurSchema } } },
    async (request, reply) => {
      const caller = callerOf(request, deps);
      const { version, ...fields } = request.body;
      const result = await handleUpdateInterlocuteur(caller, { interlocuteurId: request.params.id, fields, version: editVersionOf(request, version) });
      sendVersion(reply, result.revision);
      return interlocuteurAnswer(deps, request.params.id, result);
    },
  );

  api.delete(
    '/api/interlocuteurs/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: DeletedResponse } } },
    async (request) => {
      await handleDeleteInterlocuteur(callerOf(request, deps), { interlocuteurId: request.params.id, version: editVersionOf(request) });
      return DELETED;
    },
  );
}
