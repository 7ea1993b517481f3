import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ifMatchHeadersSchema,
  installationBodySchema,
  installationSchema,
  managementIdParamsSchema,
  withEditVersion,
  type Installation,
  type InstallationEvent,
} from '@fsm/contracts';
import { findInstallation, findMetier } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import type { CommandResult } from '../../commands/execute.js';
import { handleCreateInstallation, handleDeleteInstallation, handleUpdateInstallation } from '../../commands/management/installation-commands.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { DELETED, callerOf } from './client-access.js';

const DeletedResponse = z.object({ success: z.literal(true) });
const installationEditBodySchema = withEditVersion(installationBodySchema);

async function installationAnswer(deps: AppDeps, installationId: string, result: CommandResult<InstallationEvent>): Promise<Installation> {
  const row = await findInstallation(deps.pool, installationId);
  if (row) {
    const { id, nom, id_metier, metier_nom, description, delai, astreinte, site_id, version } = row;
    return { id, nom, id_metier, metier_nom, description, delai, astreinte, site_id, version };
  }
  const last = result.events.at(-1);
  if (!last || last.type === 'InstallationDeleted') throw new NotFoundError(M.installationNotFound);
  const { nom, metierId, description, delai, astreinte, siteId } = last.data;
  const metier = await findMetier(deps.pool, metierId);
  return { id: installationId, nom, id_metier: metierId, metier_nom: metier?.nom ?? null, description, delai, astreinte, site_id: siteId, version: result.revision };
}

/** The lists of installations are served with their site: GET /api/sites/{id}/installations and GET /api/clients/{id}/sites. */
export async function installationRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/installations', { schema: { body: installationBodySchema, response: { 201: installationSchema } } }, async (request, reply) => {
    const installationId = deps.newId();
    const result = await handleCreateInstallation(callerOf(request, deps), { installationId, fields: request.body });
    sendVersion(reply, result.revision);
    return reply.status(201).send(await installationAnswer(deps, installationId, result));
  });

  api.put(
    '/api/installations/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: installationEditBodySchema, response: { 200: installationSchema } } },
    async (request, reply) => {
      const caller = callerOf(request, deps);
      const { version, ...fields } = request.body;
      const result = await handleUpdateInstallation(caller, { installationId: request.params.id, fields, version: editVersionOf(request, version) });
      sendVersion(reply, result.revision);
      return installationAnswer(deps, request.params.id, result);
    },
  );

  api.delete(
    '/api/installations/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: DeletedResponse } } },
    async (request) => {
      await handleDeleteInstallation(callerOf(request, deps), { installationId: request.params.id, version: editVersionOf(request) });
      return DELETED;
    },
  );
}
