import {
  MANAGEMENT_MESSAGES as M,
  NotFoundError,
  installationEventSchema,
  installationStreamId,
  type InstallationBody,
  type InstallationEvent,
} from '@fsm/contracts';
import { findMetier, hasOpenTickets } from '@fsm/projections';
import { installationDecider } from '../../domain/installation/index.js';
import { basisOf, commandHandler, type CommandResult } from '../execute.js';
import { requireInstallation, requireSite, type ManagementCaller } from './client-scope.js';

/** Runs a command on the aggregate's stream. */
const runInstallationCommand = commandHandler({ decider: installationDecider, streamOf: installationStreamId, events: installationEventSchema });

async function requireMetier(caller: ManagementCaller, metierId: string): Promise<void> {
  if (!(await findMetier(caller.db, metierId))) throw new NotFoundError(M.metierNotFound);
}

/** The site must be live and in the caller's agencies, the métier live. */
export async function handleCreateInstallation(
  caller: ManagementCaller,
  input: { installationId: string; fields: InstallationBody },
): Promise<CommandResult<InstallationEvent>> {
  await requireSite(caller, input.fields.site_id);
  await requireMetier(caller, input.fields.id_metier);
  return runInstallationCommand(
    caller,
    input.installationId,
    { type: 'CreateInstallation', data: { installationId: input.installationId, fields: input.fields, createdAt: caller.now.toISOString() } },
  );
}

/**
 * A new site or métier is checked like on creation; keeping a métier that was
 * deleted since is allowed (the installation still names it), a deleted one
 * cannot be picked anew.
 */
export async function handleUpdateInstallation(
  caller: ManagementCaller,
  input: { installationId: string; fields: InstallationBody; version?: number | undefined },
): Promise<CommandResult<InstallationEvent>> {
  const current = await requireInstallation(caller, input.installationId);
  const basis = basisOf(current, input.version, installationStreamId(input.installationId));
  if (input.fields.site_id !== current.site_id) await requireSite(caller, input.fields.site_id);
  if (input.fields.id_metier !== current.id_metier) await requireMetier(caller, input.fields.id_metier);
  return runInstallationCommand(
    caller,
    input.installationId,
    { type: 'UpdateInstallation', data: { installationId: input.installationId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    basis,
  );
}

export async function handleDeleteInstallation(
  caller: ManagementCaller,
  input: { installationId: string; version?: number | undefined },
): Promise<CommandResult<InstallationEvent>> {
  const current = await requireInstallation(caller, input.installationId);
  const basis = basisOf(current, input.version, installationStreamId(input.installationId));
  const openTickets = await hasOpenTickets(caller.db, { installationId: input.installationId });
  return runInstallationCommand(
    caller,
    input.installationId,
    { type: 'DeleteInstallation', data: { installationId: input.installationId, hasOpenTickets: openTickets, deletedAt: caller.now.toISOString() } },
    basis,
  );
}
