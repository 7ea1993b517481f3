import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ifMatchHeadersSchema,
  managementIdParamsSchema,
  metierBodySchema,
  metierReorderBodySchema,
  metierSchema,
  metiersResponseSchema,
  withEditVersion,
  type Metier,
  type MetierEvent,
} from '@fsm/contracts';
import { findMetier, listMetiers } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { commandCaller } from '../../commands/command-context.js';
import type { CommandResult } from '../../commands/execute.js';
import { handleCreateMetier, handleDeleteMetier, handleReorderMetiers, handleUpdateMetier } from '../../commands/management/metier-commands.js';
import { actorOf } from '../actor.js';
import { editVersionOf, sendVersion } from '../edit-version.js';
import { DELETED } from './client-access.js';

const DeletedResponse = z.object({ success: z.literal(true) });
const metierEditBodySchema = withEditVersion(metierBodySchema);


async function metierAnswer(deps: AppDeps, metierId: string, result: CommandResult<MetierEvent>): Promise<Metier> {
  const row = await findMetier(deps.pool, metierId);
  if (row) return row;
  const last = result.events.at(-1);
  if (last?.type !== 'MetierCreated' && last?.type !== 'MetierUpdated') throw new NotFoundError(M.metierNotFound);
  const { nom, ordre, delai_inter, HO_stats } = last.data;
  return { id: metierId, nom, ordre, delai_inter, HO_stats, version: result.revision };
}

export async function metierRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  // Every signed-in user, télésurveillance included: the trade of an installation shows in every ticket screen.
  api.get('/api/metiers', { schema: { response: { 200: metiersResponseSchema } } }, async () => listMetiers(deps.pool));

  api.post('/api/metiers', { schema: { body: metierBodySchema, response: { 201: metierSchema } } }, async (request, reply) => {
    const metierId = deps.newId();
    const result = await handleCreateMetier(commandCaller(deps, actorOf(request)), { metierId, fields: request.body });
    sendVersion(reply, result.revision);
    return reply.status(201).send(await metierAnswer(deps, metierId, result));
  });

  // Static, so it is matched before /api/metiers/:id whatever the registration order. Answers the reordered list.
  // Each item may carry the version of its trade as listed (a list has no single If-Match).
  api.put('/api/metiers/reorder', { schema: { body: metierReorderBodySchema, response: { 200: metiersResponseSchema } } }, async (request) => {
    await handleReorderMetiers(commandCaller(deps, actorOf(request)), { items: request.body });
    return listMetiers(deps.pool);
  });

  api.put(
    '/api/metiers/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: metierEditBodySchema, response: { 200: metierSchema } } },
    async (request, reply) => {
      const caller = commandCaller(deps, actorOf(request));
      const { version, ...fields } = request.body;
      const result = await handleUpdateMetier(caller, { metierId: request.params.id, fields, version: editVersionOf(request, version) });
      // The trade's version, not the catalogue's revision (they differ when the save changed nothing).
      const answer = await metierAnswer(deps, request.params.id, result);
      if (answer.version !== undefined) sendVersion(reply, answer.version);
      return answer;
    },
  );

  api.delete('/api/metiers/:id', { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: DeletedResponse } } }, async (request) => {
    await handleDeleteMetier(commandCaller(deps, actorOf(request)), { metierId: request.params.id, version: editVersionOf(request) });
    return DELETED;
  });
}
