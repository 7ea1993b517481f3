import { templateEventSchema, templateStreamId, type TemplateBodyInput, type TemplateEvent } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { isTemplateAssigned, type Queryable } from '@fsm/projections';
import { templateDecider, type TemplateCommand } from '../../domain/template/index.js';
import { execute, type Actor, type CommandContext, type CommandResult, type EditBasis } from '../execute.js';
import { sanitizeTemplateCss, sanitizeTemplateHtml } from './template-sanitizer.js';

export const toTemplateEvent = (recorded: RecordedEvent): TemplateEvent => templateEventSchema.parse({ type: recorded.type, data: recorded.data });

function run(context: CommandContext, actor: Actor, templateId: string, command: TemplateCommand, basis?: EditBasis): Promise<CommandResult<TemplateEvent>> {
  return execute(context, templateDecider, templateStreamId(templateId), command, actor, toTemplateEvent, basis);
}

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

export function createTemplate(context: CommandContext, actor: Actor, input: { templateId: string; fields: TemplateBodyInput; publicUrl: string; at: Date }) {
  return run(context, actor, input.templateId, {
    type: 'CreateTemplate',
    data: { templateId: input.templateId, fields: sanitizedTemplateFields(input.fields, input.publicUrl), createdAt: input.at.toISOString() },
  });
}

export function updateTemplate(
  context: CommandContext,
  actor: Actor,
  input: { templateId: string; fields: TemplateBodyInput; publicUrl: string; at: Date; basis: EditBasis },
) {
  return run(
    context,
    actor,
    input.templateId,
    {
      type: 'UpdateTemplate',
      data: { templateId: input.templateId, fields: sanitizedTemplateFields(input.fields, input.publicUrl), updatedAt: input.at.toISOString() },
    },
    input.basis,
  );
}

export async function deleteTemplate(context: CommandContext, db: Queryable, actor: Actor, input: { templateId: string; at: Date; basis: EditBasis }) {
  const isAssignedToAgence = await isTemplateAssigned(db, input.templateId);
  return run(
    context,
    actor,
    input.templateId,
    { type: 'DeleteTemplate', data: { templateId: input.templateId, isAssignedToAgence, deletedAt: input.at.toISOString() } },
    input.basis,
  );
}
