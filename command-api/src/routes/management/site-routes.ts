import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  installationsResponseSchema,
  managementIdParamsSchema,
  siteBodySchema,
  siteSchema,
  sitesResponseSchema,
  type Site,
  type SiteEvent,
} from '@fsm/contracts';
import { findClient, findSite, listInstallationsBySite, listSitesByClient } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import type { CommandResult } from '../../commands/execute.js';
import { createSite, deleteSite, updateSite } from '../../commands/management/site-commands.js';
import { DELETED, editorOf, readScope } from './client-access.js';

const DeletedResponse = z.object({ success: z.literal(true) });

async function siteAnswer(deps: AppDeps, siteId: string, result: CommandResult<SiteEvent>): Promise<Site> {
  const row = await findSite(deps.pool, siteId);
  if (row) {
    const { id, nom, adresse, ville, code_postal, client_id } = row;
    return { id, nom, adresse, ville, code_postal, client_id };
  }
  const last = result.events.at(-1);
  if (!last || last.type === 'SiteDeleted') throw new NotFoundError(M.siteNotFound);
  const { nom, adresse, ville, code_postal, clientId } = last.data;
  return { id: siteId, nom, adresse, ville, code_postal, client_id: clientId };
}

export async function siteRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Télésurveillance may call it: the cascade of its ticket form.
  api.get(
    '/api/sites/client/:id',
    { schema: { params: managementIdParamsSchema, response: { 200: sitesResponseSchema } } },
    async (request) => {
      const scope = readScope(request, { telesurveillance: true });
      if (!(await findClient(deps.pool, request.params.id, scope))) throw new NotFoundError(M.clientNotFound);
      return listSitesByClient(deps.pool, request.params.id, scope);
    },
  );

  // Télésurveillance may call it: the cascade of its ticket form.
  api.get(
    '/api/sites/:id/installations',
    { schema: { params: managementIdParamsSchema, response: { 200: installationsResponseSchema } } },
    async (request) => {
      const scope = readScope(request, { telesurveillance: true });
      if (!(await findSite(deps.pool, request.params.id, scope))) throw new NotFoundError(M.siteNotFound);
      return listInstallationsBySite(deps.pool, request.params.id, scope);
    },
  );

  api.post('/api/sites', { schema: { body: siteBodySchema, response: { 201: siteSchema } } }, async (request, reply) => {
    const siteId = deps.newId();
    const result = await createSite(editorOf(request, deps), { siteId, fields: request.body });
    return reply.status(201).send(await siteAnswer(deps, siteId, result));
  });

  api.put(
    '/api/sites/:id',
    { schema: { params: managementIdParamsSchema, body: siteBodySchema, response: { 200: siteSchema } } },
    async (request) => {
      const result = await updateSite(editorOf(request, deps), { siteId: request.params.id, fields: request.body });
      return siteAnswer(deps, request.params.id, result);
    },
  );

  api.delete('/api/sites/:id', { schema: { params: managementIdParamsSchema, response: { 200: DeletedResponse } } }, async (request) => {
    await deleteSite(editorOf(request, deps), { siteId: request.params.id });
    return DELETED;
  });
}
