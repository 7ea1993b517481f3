import { METIERS_STREAM_ID, metierEventSchema, type MetierBody, type MetierEvent, type MetierReorderBody } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { isMetierUsed, type Queryable } from '@fsm/projections';
import { metiersDecider } from '../../domain/metier/index.js';
import { execute, type Actor, type CommandContext, type CommandResult } from '../execute.js';

export const toMetierEvent = (recorded: RecordedEvent): MetierEvent => metierEventSchema.parse({ type: recorded.type, data: recorded.data });

/** Trades are one platform-wide catalogue: no agency scope, one stream. */
export interface MetierCaller {
  context: CommandContext;
  db: Queryable;
  actor: Actor;
  now: Date;
}

export function createMetier(caller: MetierCaller, input: { metierId: string; fields: MetierBody }): Promise<CommandResult<MetierEvent>> {
  return execute(
    caller.context,
    metiersDecider,
    METIERS_STREAM_ID,
    { type: 'CreateMetier', data: { metierId: input.metierId, fields: input.fields, createdAt: caller.now.toISOString() } },
    caller.actor,
    toMetierEvent,
  );
}

/** Also the HO_stats toggle (§7: it uses the update call). */
export function updateMetier(caller: MetierCaller, input: { metierId: string; fields: MetierBody }): Promise<CommandResult<MetierEvent>> {
  return execute(
    caller.context,
    metiersDecider,
    METIERS_STREAM_ID,
    { type: 'UpdateMetier', data: { metierId: input.metierId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    caller.actor,
    toMetierEvent,
  );
}

/** Refused while a live installation uses the trade (its SLA delay comes from it). */
export async function deleteMetier(caller: MetierCaller, input: { metierId: string }): Promise<CommandResult<MetierEvent>> {
  const usedByInstallations = await isMetierUsed(caller.db, input.metierId);
  return execute(
    caller.context,
    metiersDecider,
    METIERS_STREAM_ID,
    { type: 'DeleteMetier', data: { metierId: input.metierId, usedByInstallations, deletedAt: caller.now.toISOString() } },
    caller.actor,
    toMetierEvent,
  );
}

export function reorderMetiers(caller: MetierCaller, input: { items: MetierReorderBody }): Promise<CommandResult<MetierEvent>> {
  return execute(
    caller.context,
    metiersDecider,
    METIERS_STREAM_ID,
    { type: 'ReorderMetiers', data: { items: input.items, reorderedAt: caller.now.toISOString() } },
    caller.actor,
    toMetierEvent,
  );
}
