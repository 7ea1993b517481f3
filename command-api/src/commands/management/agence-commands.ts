import { MANAGEMENT_MESSAGES as M, ValidationError, agenceEventSchema, agenceStreamId, type AgenceBodyInput } from '@fsm/contracts';
import { agenceHasClients, agenceHasUsers, findTemplate, type Queryable } from '@fsm/projections';
import { agenceDecider } from '../../domain/agence/index.js';
import { commandHandler, type CommandCaller, type EditBasis } from '../execute.js';

/*
 * Agencies: the routes authorize and scope, these handlers read the flags the
 * decider needs from the read models and run the command.
 */

const runAgenceCommand = commandHandler({ decider: agenceDecider, streamOf: agenceStreamId, events: agenceEventSchema });

/** A template reference must name a live template; only a change is checked, so an unchanged id never blocks a save. */
async function checkTemplate(db: Queryable, templateId: string | null | undefined, currentTemplateId: string | null): Promise<void> {
  if (!templateId || templateId === currentTemplateId) return;
  if (!(await findTemplate(db, templateId))) throw new ValidationError(M.agenceTemplateInvalid);
}

export async function handleCreateAgence(caller: CommandCaller, input: { agenceId: string; fields: AgenceBodyInput }) {
  await checkTemplate(caller.db, input.fields.id_template, null);
  return runAgenceCommand(
    caller,
    input.agenceId,
    { type: 'CreateAgence', data: { agenceId: input.agenceId, fields: input.fields, createdAt: caller.now.toISOString() } },
  );
}

export async function handleUpdateAgence(
  caller: CommandCaller,
  input: { agenceId: string; fields: AgenceBodyInput; currentTemplateId: string | null; basis: EditBasis },
) {
  await checkTemplate(caller.db, input.fields.id_template, input.currentTemplateId);
  return runAgenceCommand(
    caller,
    input.agenceId,
    { type: 'UpdateAgence', data: { agenceId: input.agenceId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    input.basis,
  );
}

export async function handleDeleteAgence(caller: CommandCaller, input: { agenceId: string; basis: EditBasis }) {
  const [hasClients, hasUsers] = await Promise.all([agenceHasClients(caller.db, input.agenceId), agenceHasUsers(caller.db, input.agenceId)]);
  return runAgenceCommand(
    caller,
    input.agenceId,
    { type: 'DeleteAgence', data: { agenceId: input.agenceId, hasClients, hasUsers, deletedAt: caller.now.toISOString() } },
    input.basis,
  );
}

export function handleSetAgenceHoraires(caller: CommandCaller, input: { agenceId: string; horaires: unknown; basis: EditBasis }) {
  return runAgenceCommand(
    caller,
    input.agenceId,
    { type: 'SetAgenceHoraires', data: { agenceId: input.agenceId, horaires: input.horaires, updatedAt: caller.now.toISOString() } },
    input.basis,
  );
}
