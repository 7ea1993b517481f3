import { siteEventSchema, siteStreamId, type SiteBody, type SiteEvent } from '@fsm/contracts';
import { hasOpenTickets } from '@fsm/projections';
import { siteDecider } from '../../domain/site/index.js';
import { basisOf, commandHandler, type CommandResult } from '../execute.js';
import { requireClient, requireSite, type ManagementCaller } from './client-scope.js';

/** Runs a command on the aggregate's stream. */
const runSiteCommand = commandHandler({ decider: siteDecider, streamOf: siteStreamId, events: siteEventSchema });

/** The site's client must be a live client the caller may change. */
export async function handleCreateSite(caller: ManagementCaller, input: { siteId: string; fields: SiteBody }): Promise<CommandResult<SiteEvent>> {
  await requireClient(caller, input.fields.client_id);
  return runSiteCommand(
    caller,
    input.siteId,
    { type: 'CreateSite', data: { siteId: input.siteId, fields: input.fields, createdAt: caller.now.toISOString() } },
  );
}

/** A site may move to another client, of an agency the caller may change too. `version`: the one the edit was made on. */
export async function handleUpdateSite(caller: ManagementCaller, input: { siteId: string; fields: SiteBody; version?: number | undefined }): Promise<CommandResult<SiteEvent>> {
  const current = await requireSite(caller, input.siteId);
  const basis = basisOf(current, input.version, siteStreamId(input.siteId));
  if (input.fields.client_id !== current.client_id) await requireClient(caller, input.fields.client_id);
  return runSiteCommand(
    caller,
    input.siteId,
    { type: 'UpdateSite', data: { siteId: input.siteId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    basis,
  );
}

export async function handleDeleteSite(caller: ManagementCaller, input: { siteId: string; version?: number | undefined }): Promise<CommandResult<SiteEvent>> {
  const current = await requireSite(caller, input.siteId);
  const basis = basisOf(current, input.version, siteStreamId(input.siteId));
  const openTickets = await hasOpenTickets(caller.db, { siteId: input.siteId });
  return runSiteCommand(
    caller,
    input.siteId,
    { type: 'DeleteSite', data: { siteId: input.siteId, hasOpenTickets: openTickets, deletedAt: caller.now.toISOString() } },
    basis,
  );
}
