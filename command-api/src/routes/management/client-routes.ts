import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CLIENTS_PAGE_SIZE,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  clientBodySchema,
  clientSchema,
  clientsResponseSchema,
  ifMatchHeadersSchema,
  managementIdParamsSchema,
  sitesWithInstallationsResponseSchema,
  withEditVersion,
  type Client,
  type ClientEvent,
} from '@fsm/contracts';
import { findAgence, findClient, listClients, listClientsByAgence, listSitesWithInstallations } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { inScope, principalOf, scopeOf } from '../../auth/principal.js';
import type { CommandResult } from '../../commands/execute.js';
import { handleCreateClient, handleDeleteClient, handleUpdateClient } from '../../commands/management/client-commands.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { DELETED, callerOf } from './client-access.js';

const PAGE_SIZE_MAX = 100;
const pageNumber = (message: string, max?: number) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce
      .number({ error: message })
      .int(message)
      .min(1, message)
      .max(max ?? Number.MAX_SAFE_INTEGER, message)
      .optional(),
  );

/**
 * GET /api/clients: `search` filters by name (case-insensitive substring).
 * Without `page` the answer is the plain array of §7 (pickers, filters); with
 * it, one page `{ items, total, page, pageSize }` for the clients screen (10 a
 * page by default, §9).
 */
const clientListQuerySchema = z.object({
  search: z.string({ error: M.textExpected }).max(100, M.tooLong(100)).optional(),
  page: pageNumber('La page doit être un nombre entier supérieur ou égal à 1.'),
  pageSize: pageNumber(`La taille de page doit être un nombre entier entre 1 et ${PAGE_SIZE_MAX}.`, PAGE_SIZE_MAX),
});

const clientPageSchema = z.object({ items: clientsResponseSchema, total: z.int().min(0), page: z.int().min(1), pageSize: z.int().min(1) });

/** Non admin_plus users may leave out the agency: theirs is used (§5). */
const clientWriteBodySchema = clientBodySchema.partial({ agence_id: true });
const clientEditBodySchema = withEditVersion(clientWriteBodySchema);

const DeletedResponse = z.object({ success: z.literal(true) });

/** The row as the list shows it; from the event if the read model has not caught up within the wait. */
async function clientAnswer(deps: AppDeps, clientId: string, result: CommandResult<ClientEvent>): Promise<Client> {
  const row = await findClient(deps.pool, clientId);
  if (row) return row;
  const last = result.events.at(-1);
  if (!last || last.type === 'ClientDeleted') throw new NotFoundError(M.clientNotFound);
  const { nom, adresse, ville, code_postal, agenceId } = last.data;
  const agence_nom = (await findAgence(deps.pool, agenceId))?.nom ?? null;
  return { id: clientId, nom, adresse, ville, code_postal, agence_id: agenceId, agence_nom, version: result.revision };
}

export async function clientRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/clients',
    { schema: { querystring: clientListQuerySchema, response: { 200: z.union([clientsResponseSchema, clientPageSchema]) } } },
    async (request) => {
      const scope = scopeOf(principalOf(request));
      const { search, page, pageSize } = request.query;
      if (page === undefined) return (await listClients(deps.pool, scope, { search: search ?? null })).rows;
      const size = pageSize ?? CLIENTS_PAGE_SIZE;
      const { rows, total } = await listClients(deps.pool, scope, { search: search ?? null, page, pageSize: size });
      return { items: rows, total, page, pageSize: size };
    },
  );

  // The télésurveillance form's first step after picking one of its agencies.
  api.get(
    '/api/clients/by-agence/:id',
    { schema: { params: managementIdParamsSchema, response: { 200: clientsResponseSchema } } },
    async (request) => {
      const scope = scopeOf(principalOf(request));
      const agenceId = request.params.id;
      if (!inScope(scope, agenceId) || !(await findAgence(deps.pool, agenceId))) throw new NotFoundError(M.agenceNotFound);
      return listClientsByAgence(deps.pool, agenceId, scope);
    },
  );

  api.get(
    '/api/clients/:id/sites',
    { schema: { params: managementIdParamsSchema, response: { 200: sitesWithInstallationsResponseSchema } } },
    async (request) => {
      const scope = scopeOf(principalOf(request));
      if (!(await findClient(deps.pool, request.params.id, scope))) throw new NotFoundError(M.clientNotFound);
      return listSitesWithInstallations(deps.pool, request.params.id, scope);
    },
  );

  api.post('/api/clients', { schema: { body: clientWriteBodySchema, response: { 201: clientSchema } } }, async (request, reply) => {
    const caller = callerOf(request, deps);
    const clientId = deps.newId();
    const result = await handleCreateClient(caller, { clientId, fields: request.body });
    sendVersion(reply, result.revision);
    return reply.status(201).send(await clientAnswer(deps, clientId, result));
  });

  api.put(
    '/api/clients/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: clientEditBodySchema, response: { 200: clientSchema } } },
    async (request, reply) => {
      const caller = callerOf(request, deps);
      const { version, ...fields } = request.body;
      const result = await handleUpdateClient(caller, { clientId: request.params.id, fields, version: editVersionOf(request, version) });
      sendVersion(reply, result.revision);
      return clientAnswer(deps, request.params.id, result);
    },
  );

  api.delete('/api/clients/:id', { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: DeletedResponse } } }, async (request) => {
    await handleDeleteClient(callerOf(request, deps), { clientId: request.params.id, version: editVersionOf(request) });
    return DELETED;
  });
}
