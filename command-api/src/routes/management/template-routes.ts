import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ForbiddenError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  hasAnyPermission,
  hasPermission,
  managementCreatedResponseSchema,
  managementIdParamsSchema,
  managementResultResponseSchema,
  parseManagementBody,
  templateBodySchema,
  templatePreviewBodySchema,
  templateSchema,
  templatesResponseSchema,
} from '@fsm/contracts';
import { findTemplate, listTemplates } from '@fsm/projections';
import type { AppDeps } from '../../app-deps.js';
import { ACCESS_DENIED, principalOf, type Principal } from '../../auth/principal.js';
import { commandContext } from '../../commands/command-context.js';
import { createTemplate, deleteTemplate, sanitizedTemplateFields, updateTemplate } from '../../commands/management/template-commands.js';
import { sanitizeTemplateHtml } from '../../commands/management/template-sanitizer.js';
import { actorOf } from '../actor.js';

/*
 * Template builder (management.md §7). The spec's builder sends no token; we
 * require one like every other management route (docs/api-additions.md):
 * templates.view or templates.manage to read, templates.manage to write.
 * Templates are platform-wide, not per agency; which agency uses one is the
 * agency's id_template (PUT /api/agences/{id}).
 */

const guard = (check: (principal: Principal) => void) => async (request: FastifyRequest) => check(principalOf(request));
const readGuard = guard((principal) => {
  if (!hasAnyPermission(principal, ['templates.view', 'templates.manage'])) throw new ForbiddenError(ACCESS_DENIED);
});
const manageGuard = guard((principal) => {
  if (!hasPermission(principal, 'templates.manage')) throw new ForbiddenError(ACCESS_DENIED);
});

export async function templateRoutes(secured: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = secured.withTypeProvider<ZodTypeProvider>();
  const context = commandContext(deps);

  app.get('/api/templates', { preValidation: readGuard, schema: { response: { 200: templatesResponseSchema } } }, async () => listTemplates(deps.pool));

  app.post(
    '/api/templates',
    { preValidation: manageGuard, schema: { body: templateBodySchema, response: { 201: managementCreatedResponseSchema } } },
    async (request, reply) => {
      const templateId = deps.newId();
      await createTemplate(context, actorOf(request), { templateId, fields: request.body, publicUrl: deps.env.PUBLIC_URL, at: deps.clock() });
      return reply.status(201).send({ id: templateId });
    },
  );

  app.put(
    '/api/templates/:id',
    { preValidation: manageGuard, schema: { params: managementIdParamsSchema, body: templateBodySchema, response: { 200: templateSchema } } },
    async (request) => {
      const { id } = request.params;
      if (!(await findTemplate(deps.pool, id))) throw new NotFoundError(M.templateNotFound);
      await updateTemplate(context, actorOf(request), { templateId: id, fields: request.body, publicUrl: deps.env.PUBLIC_URL, at: deps.clock() });
      // What was stored: the sanitised HTML and CSS, so the builder shows what survived.
      return { id, ...parseManagementBody(templateBodySchema, sanitizedTemplateFields(request.body, deps.env.PUBLIC_URL)) };
    },
  );

  /*
   * 'Preview A4' (docs/api-additions.md): the editor's current content, saved
   * or not, sanitised as a save would, rendered by the workers with a sample
   * closed ticket. Answers the PDF; nothing is stored, no event is written.
   */
  app.post('/api/templates/preview', { preValidation: readGuard, schema: { body: templatePreviewBodySchema } }, async (request, reply) => {
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
    { preValidation: manageGuard, schema: { params: managementIdParamsSchema, response: { 200: managementResultResponseSchema } } },
    async (request) => {
      const { id } = request.params;
      if (!(await findTemplate(deps.pool, id))) throw new NotFoundError(M.templateNotFound);
      await deleteTemplate(context, deps.pool, actorOf(request), { templateId: id, at: deps.clock() });
      return { success: true };
    },
  );
}
