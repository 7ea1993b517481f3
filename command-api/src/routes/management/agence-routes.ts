import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACCESS_REFUSAL_MESSAGES,
  ForbiddenError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  agenceBodySchema,
  agenceHorairesBodySchema,
  agenceHorairesResponseSchema,
  agenceSchema,
  agenceStreamId,
  agencesResponseSchema,
  hasPermission,
  ifMatchHeadersSchema,
  managementIdParamsSchema,
  managementResultResponseSchema,
  withEditVersion,
  type Agence,
} from '@fsm/contracts';
import { findAgence, findAgenceHoraires, listAgences, type AgenceRow } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { inScope, principalOf, scopeOf, type Principal } from '../../auth/principal.js';
import { commandCaller } from '../../commands/command-context.js';
import { basisOf } from '../../commands/execute.js';
import { handleCreateAgence, handleDeleteAgence, handleSetAgenceHoraires, handleUpdateAgence } from '../../commands/management/agence-commands.js';
import { actorOf } from '../actor.js';
import { editVersionOf, sendVersion } from '../edit-version.js';

/*
 * Who does what (management.md §6, docs/api-additions.md):
 * - reading: agences.view (admin_plus always), or the template builder's
 *   permissions (its 'Agence' action lists agencies); télésurveillance accounts
 *   read their assigned agencies. Everybody sees only the agencies of their scope.
 * - writing: agences.edit (admin_plus always), on agencies of one's scope.
 *   Creating an agency is admin_plus's: a new agency is outside everybody
 *   else's own agency, so they could neither see nor manage it.
 * - the template builder (templates.manage) may change id_template only.
 * Roles and permissions are the door's (ROUTE_ACCESS); the routes check the
 * scope and, for the template builder, which fields changed.
 */

/** PUT /api/agences/{id} may say which version of the agency it was made on. */
const agenceEditBodySchema = withEditVersion(agenceBodySchema);


const toAgence = (row: AgenceRow): Agence => ({
  id: row.id,
  nom: row.nom,
  adresse: row.adresse,
  cp_postal: row.cp_postal,
  ville: row.ville,
  telephone: row.telephone,
  id_template: row.id_template,
  version: row.version,
});

/** A live agency of the caller's scope; unknown and out-of-scope alike are 404, so ids outside one's agency tell nothing. */
async function agenceInScope(deps: AppDeps, principal: Principal, id: string): Promise<AgenceRow> {
  const row = inScope(scopeOf(principal), id) ? await findAgence(deps.pool, id) : null;
  if (!row) throw new NotFoundError(M.agenceNotFound);
  return row;
}

export async function agenceRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = secured.withTypeProvider<ZodTypeProvider>();

  app.get('/api/agences', { schema: { response: { 200: agencesResponseSchema } } }, async (request) => {
    return (await listAgences(deps.pool, scopeOf(principalOf(request)))).map(toAgence);
  });

  app.post('/api/agences', { schema: { body: agenceBodySchema, response: { 201: agenceSchema } } }, async (request, reply) => {
    const agenceId = deps.newId();
    const result = await handleCreateAgence(commandCaller(deps, actorOf(request)), { agenceId, fields: request.body });
    const { id_template, ...fields } = request.body;
    sendVersion(reply, result.revision);
    return reply.status(201).send({ id: agenceId, ...fields, id_template: id_template ?? null, version: result.revision });
  });

  app.put(
    '/api/agences/:id',
    {
      schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: agenceEditBodySchema, response: { 200: agenceSchema } },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const current = await agenceInScope(deps, principal, request.params.id);
      const { version, ...body } = request.body;
      // The template builder's check below and the template check compare with this row: the save lands on it or not at all.
      const basis = basisOf(current, editVersionOf(request, version), agenceStreamId(current.id));
      const { id_template, ...fields } = body;
      if (!hasPermission(principal, 'agences.edit')) {
        // The template builder's save: the whole agency comes back, only its template may differ.
        const unchanged = (Object.keys(fields) as (keyof typeof fields)[]).every((key) => fields[key] === current[key]);
        if (!unchanged) throw new ForbiddenError(ACCESS_REFUSAL_MESSAGES['agence-save']);
      }
      const result = await handleUpdateAgence(commandCaller(deps, actorOf(request)), {
        agenceId: current.id,
        fields: body,
        currentTemplateId: current.id_template,
        basis,
      });
      sendVersion(reply, result.revision);
      return { id: current.id, ...fields, id_template: id_template === undefined ? current.id_template : id_template, version: result.revision };
    },
  );

  app.delete(
    '/api/agences/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: managementResultResponseSchema } } },
    async (request) => {
      const current = await agenceInScope(deps, principalOf(request), request.params.id);
      const basis = basisOf(current, editVersionOf(request), agenceStreamId(current.id));
      await handleDeleteAgence(commandCaller(deps, actorOf(request)), { agenceId: current.id, basis });
      return { success: true };
    },
  );

  app.get(
    '/api/agences/:id/horaires',
    { schema: { params: managementIdParamsSchema, response: { 200: agenceHorairesResponseSchema } } },
    async (request, reply) => {
      const current = await agenceInScope(deps, principalOf(request), request.params.id);
      const horaires = await findAgenceHoraires(deps.pool, current.id);
      if (!horaires) throw new NotFoundError(M.agenceNotFound);
      // The answer is a list: its version (the agency's) travels as the ETag, for If-Match on the save.
      sendVersion(reply, current.version);
      return horaires;
    },
  );

  app.put(
    '/api/agences/:id/horaires',
    {
      schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: agenceHorairesBodySchema, response: { 200: agenceHorairesResponseSchema } },
    },
    async (request, reply) => {
      const current = await agenceInScope(deps, principalOf(request), request.params.id);
      const basis = basisOf(current, editVersionOf(request), agenceStreamId(current.id));
      const result = await handleSetAgenceHoraires(commandCaller(deps, actorOf(request)), { agenceId: current.id, horaires: request.body, basis });
      sendVersion(reply, result.revision);
      // The body, once parsed, is the whole week as stored: five days in order, left-out days closed.
      return request.body;
    },
  );
}
