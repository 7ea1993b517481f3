import {
  IllegalStateError,
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  parseManagementBody,
  templateBodySchema,
  type TemplateBodyInput,
  type TemplateEvent,
} from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolveTemplate, templateInitialState, type TemplateState } from './template.js';

/*
 * Order of checks: exists (404), fits the state (409), input (400). The HTML
 * is sanitised by the handler before the command (sanitize-html is not a
 * contracts dependency); whether an agency still uses the template arrives as
 * a flag from the agencies read model.
 */

type CreateTemplate = { type: 'CreateTemplate'; data: { templateId: string; fields: TemplateBodyInput; createdAt: string } };
type UpdateTemplate = { type: 'UpdateTemplate'; data: { templateId: string; fields: TemplateBodyInput; updatedAt: string } };
type DeleteTemplate = { type: 'DeleteTemplate'; data: { templateId: string; isAssignedToAgence: boolean; deletedAt: string } };

export type TemplateCommand = CreateTemplate | UpdateTemplate | DeleteTemplate;

function requireActive(state: TemplateState) {
  if (state.status !== 'active') throw new NotFoundError(M.templateNotFound);
  return state;
}

function createTemplate(command: CreateTemplate, state: TemplateState): TemplateEvent[] {
  if (state.status !== 'nonexistent') throw new IllegalStateError(M.templateExists);
  const { templateId, fields, createdAt } = command.data;
  const { name, content_html, css } = parseManagementBody(templateBodySchema, fields);
  return [{ type: 'TemplateCreated', data: { templateId, name, content_html, css, createdAt } }];
}

function updateTemplate(command: UpdateTemplate, state: TemplateState): TemplateEvent[] {
  const template = requireActive(state);
  const { templateId, fields, updatedAt } = command.data;
  const { name, content_html, css } = parseManagementBody(templateBodySchema, fields);
  if (name === template.name && content_html === template.content_html && css === template.css) return [];
  return [{ type: 'TemplateUpdated', data: { templateId, name, content_html, css, updatedAt } }];
}

/** A template still used by an agency would leave its reports without a layout: unassign it first. */
function deleteTemplate(command: DeleteTemplate, state: TemplateState): TemplateEvent[] {
  requireActive(state);
  const { templateId, isAssignedToAgence, deletedAt } = command.data;
  if (isAssignedToAgence) throw new IllegalStateError(M.templateInUse);
  return [{ type: 'TemplateDeleted', data: { templateId, deletedAt } }];
}

function decideTemplate(command: TemplateCommand, state: TemplateState): TemplateEvent[] {
  switch (command.type) {
    case 'CreateTemplate':
      return createTemplate(command, state);
    case 'UpdateTemplate':
      return updateTemplate(command, state);
    case 'DeleteTemplate':
      return deleteTemplate(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const templateDecider: Decider<TemplateCommand, TemplateState, TemplateEvent> = {
  decide: decideTemplate,
  evolve: evolveTemplate,
  initialState: templateInitialState,
};
