import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ifMatchHeadersSchema,
  installationsResponseSchema,
  managementIdParamsSchema,
  siteBodySchema,
  siteSchema,
  sitesResponseSchema,
  withEditVersion,
  type Site,
  type SiteEvent,
} from '@fsm/contracts';
import { findClient, findSite, listInstallationsBySite, listSitesByClient } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { principalOf, scopeOf } from '../../auth/principal.js';
import type { CommandResult } from '../../commands/execute.js';
import { handleCreateSite, handleDeleteSite, handleUpdateSite } from '../../commands/management/site-commands.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { DELETED, callerOf } from './client-access.js';

const DeletedResponse = z.object({ success: z.literal(true) });
const siteEditBodySchema = withEditVersion(siteBodySchema);

async function siteAnswer(deps: AppDeps, siteId: string, result: CommandResult<SiteEvent>): Promise<Site> {
  const row = await findSite(deps.pool, siteId);
  if (row) {
    const { id, nom, adresse, ville, code_postal, client_id, version } = row;
    return { id, nom, adresse, ville, code_postal, client_id, version };
  }
  const last = result.events.at(-1);
  if (!last || last.type === 'SiteDeleted') throw new NotFoundError(M.siteNotFound);
  const { nom, adresse, ville, code_postal, clientId } = last.data;
  return { id: siteId, nom, adresse, ville, code_postal, client_id: clientId, version: result.revision };
}

export async function siteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Télésurveillance may call it: the cascade of its ticket form.
  api.get(
    '/api/sites/client/:id',
    { schema: { params: managementIdParamsSchema, response: { 200: sitesResponseSchema } } },
    async (request) => {
      const scope = scopeOf(principalOf(request));
      if (!(await findClient(deps.pool, request.params.id, scope))) throw new NotFoundError(M.clientNotFound);
      return listSitesByClient(deps.pool, request.params.id, scope);
    },
  );

  // Télésurveillance may call it: the cascade of its ticket form.
  api.get(
    '/api/sites/:id/installations',
    { schema: { params: managementIdParamsSchema, response: { 200: installationsResponseSchema } } },
    async (request) => {
      const scope = scopeOf(principalOf(request));
      if (!(await findSite(deps.pool, request.params.id, scope))) throw new NotFoundError(M.siteNotFound);
      return listInstallationsBySite(deps.pool, request.params.id, scope);
    },
  );

  api.post('/api/sites', { schema: { body: siteBodySchema, response: { 201: siteSchema } } }, async (request, reply) => {
    const siteId = deps.newId();
    const result = await handleCreateSite(callerOf(request, deps), { siteId, fields: request.body });
    sendVersion(reply, result.revision);
    return reply.status(201).send(await siteAnswer(deps, siteId, result));
  });

  api.put(
    '/api/sites/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: siteEditBodySchema, response: { 200: siteSchema } } },
    async (request, reply) => {
      const caller = callerOf(request, deps);
      const { version, ...fields } = request.body;
      const result = await handleUpdateSite(caller, { siteId: request.params.id, fields, version: editVersionOf(request, version) });
      sendVersion(reply, result.revision);
      return siteAnswer(deps, request.params.id, result);
    },
  );

  api.delete('/api/sites/:id', { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: DeletedResponse } } }, async (request) => {
    await handleDeleteSite(callerOf(request, deps), { siteId: request.params.id, version: editVersionOf(request) });
    return DELETED;
  });
}
