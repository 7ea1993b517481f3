import { MANAGEMENT_MESSAGES as M, ValidationError, agenceEventSchema, agenceStreamId, type AgenceBodyInput, type AgenceEvent } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { agenceHasClients, agenceHasUsers, findTemplate, type Queryable } from '@fsm/projections';
import { agenceDecider, type AgenceCommand } from '../../domain/agence/index.js';
import { execute, type Actor, type CommandContext, type CommandResult, type EditBasis } from '../execute.js';

/*
 * Agencies: the routes authorize and scope, these handlers read the flags the
 * decider needs from the read models and run the command.
 */

export const toAgenceEvent = (recorded: RecordedEvent): AgenceEvent => agenceEventSchema.parse({ type: recorded.type, data: recorded.data });

function run(context: CommandContext, actor: Actor, agenceId: string, command: AgenceCommand, basis?: EditBasis): Promise<CommandResult<AgenceEvent>> {
  return execute(context, agenceDecider, agenceStreamId(agenceId), command, actor, toAgenceEvent, basis);
}

/** A template reference must name a live template; only a change is checked, so an unchanged id never blocks a save. */
async function checkTemplate(db: Queryable, templateId: string | null | undefined, currentTemplateId: string | null): Promise<void> {
  if (!templateId || templateId === currentTemplateId) return;
  if (!(await findTemplate(db, templateId))) throw new ValidationError(M.agenceTemplateInvalid);
}

export async function createAgence(context: CommandContext, db: Queryable, actor: Actor, input: { agenceId: string; fields: AgenceBodyInput; at: Date }) {
  await checkTemplate(db, input.fields.id_template, null);
  return run(context, actor, input.agenceId, { type: 'CreateAgence', data: { agenceId: input.agenceId, fields: input.fields, createdAt: input.at.toISOString() } });
}

export async function updateAgence(
  context: CommandContext,
  db: Queryable,
  actor: Actor,
  input: { agenceId: string; fields: AgenceBodyInput; currentTemplateId: string | null; at: Date; basis: EditBasis },
) {
  await checkTemplate(db, input.fields.id_template, input.currentTemplateId);
  return run(
    context,
    actor,
    input.agenceId,
    { type: 'UpdateAgence', data: { agenceId: input.agenceId, fields: input.fields, updatedAt: input.at.toISOString() } },
    input.basis,
  );
}

export async function deleteAgence(context: CommandContext, db: Queryable, actor: Actor, input: { agenceId: string; at: Date; basis: EditBasis }) {
  const [hasClients, hasUsers] = await Promise.all([agenceHasClients(db, input.agenceId), agenceHasUsers(db, input.agenceId)]);
  return run(
    context,
    actor,
    input.agenceId,
    { type: 'DeleteAgence', data: { agenceId: input.agenceId, hasClients, hasUsers, deletedAt: input.at.toISOString() } },
    input.basis,
  );
}

export function setAgenceHoraires(context: CommandContext, actor: Actor, input: { agenceId: string; horaires: unknown; at: Date; basis: EditBasis }) {
  return run(
    context,
    actor,
    input.agenceId,
    { type: 'SetAgenceHoraires', data: { agenceId: input.agenceId, horaires: input.horaires, updatedAt: input.at.toISOString() } },
    input.basis,
  );
}
