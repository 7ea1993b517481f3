import { templateEventSchema, templateStreamId, type TemplateBodyInput } from '@fsm/contracts';
import { isTemplateAssigned } from '@fsm/projections';
import { templateDecider } from '../../domain/template/index.js';
import { commandHandler, type CommandCaller, type EditBasis } from '../execute.js';
import { sanitizeTemplateCss, sanitizeTemplateHtml } from './template-sanitizer.js';

const runTemplateCommand = commandHandler({ decider: templateDecider, streamOf: templateStreamId, events: templateEventSchema });

/**
 * What the events keep: the HTML and CSS once sanitised. Content that is only
 * forbidden markup ends up empty, and the decider then answers 'Nom et contenu requis.'
 */
export function sanitizedTemplateFields(fields: TemplateBodyInput, publicUrl: string): TemplateBodyInput {
  return {
    ...fields,
    content_html: typeof fields.content_html === 'string' ? sanitizeTemplateHtml(fields.content_html, publicUrl) : fields.content_html,
    css: typeof fields.css === 'string' ? sanitizeTemplateCss(fields.css) : fields.css,
  };
}

export function handleCreateTemplate(caller: CommandCaller, input: { templateId: string; fields: TemplateBodyInput; publicUrl: string }) {
  return runTemplateCommand(caller, input.templateId, {
    type: 'CreateTemplate',
    data: { templateId: input.templateId, fields: sanitizedTemplateFields(input.fields, input.publicUrl), createdAt: caller.now.toISOString() },
  });
}

export function handleUpdateTemplate(caller: CommandCaller, input: { templateId: string; fields: TemplateBodyInput; publicUrl: string; basis: EditBasis }) {
  return runTemplateCommand(
    caller,
    input.templateId,
    {
      type: 'UpdateTemplate',
      data: { templateId: input.templateId, fields: sanitizedTemplateFields(input.fields, input.publicUrl), updatedAt: caller.now.toISOString() },
    },
    input.basis,
  );
}

export async function handleDeleteTemplate(caller: CommandCaller, input: { templateId: string; basis: EditBasis }) {
  const isAssignedToAgence = await isTemplateAssigned(caller.db, input.templateId);
  return runTemplateCommand(
    caller,
    input.templateId,
    { type: 'DeleteTemplate', data: { templateId: input.templateId, isAssignedToAgence, deletedAt: caller.now.toISOString() } },
    input.basis,
  );
}
