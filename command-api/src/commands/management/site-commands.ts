import { siteEventSchema, siteStreamId, type SiteBody, type SiteEvent } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { hasOpenTickets } from '@fsm/projections';
import { siteDecider } from '../../domain/site/index.js';
import { basisOf, execute, type CommandResult } from '../execute.js';
import { requireClient, requireSite, type ManagementCaller } from './client-scope.js';

export const toSiteEvent = (recorded: RecordedEvent): SiteEvent => siteEventSchema.parse({ type: recorded.type, data: recorded.data });

/** The site's client must be a live client the caller may change. */
export async function createSite(caller: ManagementCaller, input: { siteId: string; fields: SiteBody }): Promise<CommandResult<SiteEvent>> {
  await requireClient(caller, input.fields.client_id);
  return execute(
    caller.context,
    siteDecider,
    siteStreamId(input.siteId),
    { type: 'CreateSite', data: { siteId: input.siteId, fields: input.fields, createdAt: caller.now.toISOString() } },
    caller.actor,
    toSiteEvent,
  );
}

/** A site may move to another client, of an agency the caller may change too. `version`: the one the edit was made on. */
export async function updateSite(caller: ManagementCaller, input: { siteId: string; fields: SiteBody; version?: number | undefined }): Promise<CommandResult<SiteEvent>> {
  const current = await requireSite(caller, input.siteId);
  const basis = basisOf(current, input.version, siteStreamId(input.siteId));
  if (input.fields.client_id !== current.client_id) await requireClient(caller, input.fields.client_id);
  return execute(
    caller.context,
    siteDecider,
    siteStreamId(input.siteId),
    { type: 'UpdateSite', data: { siteId: input.siteId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    caller.actor,
    toSiteEvent,
    basis,
  );
}

export async function deleteSite(caller: ManagementCaller, input: { siteId: string; version?: number | undefined }): Promise<CommandResult<SiteEvent>> {
  const current = await requireSite(caller, input.siteId);
  const basis = basisOf(current, input.version, siteStreamId(input.siteId));
  const openTickets = await hasOpenTickets(caller.db, { siteId: input.siteId });
  return execute(
    caller.context,
    siteDecider,
    siteStreamId(input.siteId),
    { type: 'DeleteSite', data: { siteId: input.siteId, hasOpenTickets: openTickets, deletedAt: caller.now.toISOString() } },
    caller.actor,
    toSiteEvent,
    basis,
  );
}
