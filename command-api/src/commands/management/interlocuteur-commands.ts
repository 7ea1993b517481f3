import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  ValidationError,
  interlocuteurEventSchema,
  interlocuteurStreamId,
  type InterlocuteurBody,
  type InterlocuteurEvent,
} from '@fsm/contracts';
import { findInterlocuteur, listInstallationsByClient, listSitesByClient } from '@fsm/projections';
import { interlocuteurDecider } from '../../domain/interlocuteur/index.js';
import { basisOf, commandHandler, type CommandResult } from '../execute.js';
import { requireClient, type ManagementCaller } from './client-scope.js';

/** Runs a command on the aggregate's stream. */
const runInterlocuteurCommand = commandHandler({ decider: interlocuteurDecider, streamOf: interlocuteurStreamId, events: interlocuteurEventSchema });

/**
 * The client must be one the caller may change, and every affected site and
 * installation a live one of that client: a contact never points at another
 * client's equipment (nor, through it, at another agency's).
 */
async function checkAffectations(caller: ManagementCaller, fields: InterlocuteurBody): Promise<void> {
  const client = await requireClient(caller, fields.client_id);
  if (fields.affect_sites.length > 0) {
    const siteIds = new Set((await listSitesByClient(caller.db, client.id)).map((site) => site.id));
    if (!fields.affect_sites.every((id) => siteIds.has(id))) throw new ValidationError(M.interlocuteurAffectationInvalid);
  }
  if (fields.affect_installations.length > 0) {
    const installationIds = new Set((await listInstallationsByClient(caller.db, client.id)).map((installation) => installation.id));
    if (!fields.affect_installations.every((id) => installationIds.has(id))) throw new ValidationError(M.interlocuteurAffectationInvalid);
  }
}

export async function handleCreateInterlocuteur(
  caller: ManagementCaller,
  input: { interlocuteurId: string; fields: InterlocuteurBody },
): Promise<CommandResult<InterlocuteurEvent>> {
  await checkAffectations(caller, input.fields);
  return runInterlocuteurCommand(
    caller,
    input.interlocuteurId,
    { type: 'CreateInterlocuteur', data: { interlocuteurId: input.interlocuteurId, fields: input.fields, createdAt: caller.now.toISOString() } },
  );
}

async function requireInterlocuteur(caller: ManagementCaller, interlocuteurId: string) {
  const interlocuteur = await findInterlocuteur(caller.db, interlocuteurId, caller.scope);
  if (!interlocuteur) throw new NotFoundError(M.interlocuteurNotFound);
  return interlocuteur;
}

/** The affectations in the body replace the whole set (the decider ignores their order). `version`: the one the edit was made on. */
export async function handleUpdateInterlocuteur(
  caller: ManagementCaller,
  input: { interlocuteurId: string; fields: InterlocuteurBody; version?: number | undefined },
): Promise<CommandResult<InterlocuteurEvent>> {
  const current = await requireInterlocuteur(caller, input.interlocuteurId);
  const basis = basisOf(current, input.version, interlocuteurStreamId(input.interlocuteurId));
  await checkAffectations(caller, input.fields);
  return runInterlocuteurCommand(
    caller,
    input.interlocuteurId,
    { type: 'UpdateInterlocuteur', data: { interlocuteurId: input.interlocuteurId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    basis,
  );
}

export async function handleDeleteInterlocuteur(
  caller: ManagementCaller,
  input: { interlocuteurId: string; version?: number | undefined },
): Promise<CommandResult<InterlocuteurEvent>> {
  const current = await requireInterlocuteur(caller, input.interlocuteurId);
  const basis = basisOf(current, input.version, interlocuteurStreamId(input.interlocuteurId));
  return runInterlocuteurCommand(
    caller,
    input.interlocuteurId,
    { type: 'DeleteInterlocuteur', data: { interlocuteurId: input.interlocuteurId, deletedAt: caller.now.toISOString() } },
    basis,
  );
}
