import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ifMatchHeadersSchema,
  managementCreatedResponseSchema,
  managementIdParamsSchema,
  managementResultResponseSchema,
  parseManagementBody,
  templateBodySchema,
  templatePreviewBodySchema,
  templateSchema,
  templateStreamId,
  templatesResponseSchema,
  withEditVersion,
} from '@fsm/contracts';
import { findTemplate, listTemplates } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { commandCaller } from '../../commands/command-context.js';
import { basisOf } from '../../commands/execute.js';
import { handleCreateTemplate, handleDeleteTemplate, sanitizedTemplateFields, handleUpdateTemplate } from '../../commands/management/template-commands.js';
import { sanitizeTemplateHtml } from '../../commands/management/template-sanitizer.js';
import { actorOf } from '../actor.js';
import { editVersionOf, sendVersion } from '../edit-version.js';

/*
 * Template builder (management.md §7). The spec's builder sends no token; we
 * require one like every other management route (docs/api-additions.md):
 * templates.view or templates.manage to read, templates.manage to write.
 * Templates are platform-wide, not per agency; which agency uses one is the
 * agency's id_template (PUT /api/agences/{id}).
 */

const templateEditBodySchema = withEditVersion(templateBodySchema);

export async function templateRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = secured.withTypeProvider<ZodTypeProvider>();

  app.get('/api/templates', { schema: { response: { 200: templatesResponseSchema } } }, async () => listTemplates(deps.pool));

  app.post(
    '/api/templates',
    { schema: { body: templateBodySchema, response: { 201: managementCreatedResponseSchema } } },
    async (request, reply) => {
      const templateId = deps.newId();
      const result = await handleCreateTemplate(commandCaller(deps, actorOf(request)), { templateId, fields: request.body, publicUrl: deps.env.PUBLIC_URL });
      sendVersion(reply, result.revision);
      return reply.status(201).send({ id: templateId, version: result.revision });
    },
  );

  app.put(
    '/api/templates/:id',
    {
      schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, body: templateEditBodySchema, response: { 200: templateSchema } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const current = await findTemplate(deps.pool, id);
      if (!current) throw new NotFoundError(M.templateNotFound);
      const { version, ...fields } = request.body;
      const basis = basisOf(current, editVersionOf(request, version), templateStreamId(id));
      const result = await handleUpdateTemplate(commandCaller(deps, actorOf(request)), { templateId: id, fields, publicUrl: deps.env.PUBLIC_URL, basis });
      sendVersion(reply, result.revision);
      // What was stored: the sanitised HTML and CSS, so the builder shows what survived.
      return { id, ...parseManagementBody(templateBodySchema, sanitizedTemplateFields(fields, deps.env.PUBLIC_URL)), version: result.revision };
    },
  );

  /*
   * 'Preview A4' (docs/api-additions.md): the editor's current content, saved
   * or not, sanitised as a save would, rendered by the workers with a sample
   * closed ticket. Answers the PDF; nothing is stored, no event is written.
   */
  app.post('/api/templates/preview', { schema: { body: templatePreviewBodySchema } }, async (request, reply) => {
    const contentHtml = sanitizeTemplateHtml(request.body.content_html, deps.env.PUBLIC_URL);
    const { pdf, templateFallback } = await deps.previews.render({ contentHtml });
    if (templateFallback) reply.header('x-template-fallback', encodeURIComponent(templateFallback));
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline; filename="apercu-modele.pdf"')
      .header('cache-control', 'no-store')
      .send(pdf);
  });

  app.delete(
    '/api/templates/:id',
    { schema: { params: managementIdParamsSchema, headers: ifMatchHeadersSchema, response: { 200: managementResultResponseSchema } } },
    async (request) => {
      const { id } = request.params;
      const current = await findTemplate(deps.pool, id);
      if (!current) throw new NotFoundError(M.templateNotFound);
      const basis = basisOf(current, editVersionOf(request), templateStreamId(id));
      await handleDeleteTemplate(commandCaller(deps, actorOf(request)), { templateId: id, basis });
      return { success: true };
    },
  );
}
