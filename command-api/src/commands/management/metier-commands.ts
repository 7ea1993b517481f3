import { METIERS_STREAM_ID, metierEventSchema, parseRecorded, type MetierBody, type MetierEvent, type MetierReorderBody } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { findMetier, isMetierUsed, listMetiers, type Queryable } from '@fsm/projections';
import { metiersDecider } from '../../domain/metier/index.js';
import { commandHandler, type CommandCaller, type CommandResult, type EditBasis } from '../execute.js';

/** Trades are one platform-wide catalogue: no agency scope, one stream. */
const runMetierCommand = commandHandler({ decider: metiersDecider, streamOf: () => METIERS_STREAM_ID, events: metierEventSchema });

/**
 * A trade's version is the revision of the last event of the catalogue's
 * stream that touched it (what rm.metiers keeps as last_revision), -1 when
 * none did: an edit of one trade is not refused because another one changed.
 */
function metierVersionIn(metierId: string): (history: readonly RecordedEvent[]) => number {
  return (history) => {
    for (let index = history.length - 1; index >= 0; index--) {
      const event = parseRecorded(metierEventSchema, history[index]!);
      const touched = event.type === 'MetiersReordered' ? event.data.items.some((item) => item.metierId === metierId) : event.data.metierId === metierId;
      if (touched) return history[index]!.revision;
    }
    return -1;
  };
}

function metierBasis(metierId: string, version: number | undefined): EditBasis[] {
  return version === undefined ? [] : [{ version, versionIn: metierVersionIn(metierId) }];
}

/**
 * Without a version from the client, an edit is decided on the trade as the
 * read model shows it when the request arrives, like every other fiche: a
 * change appended since (not yet shown to anybody) is not overwritten.
 */
async function versionOrListed(db: Queryable, metierId: string, version: number | undefined): Promise<number | undefined> {
  return version ?? (await findMetier(db, metierId))?.version;
}

export function handleCreateMetier(caller: CommandCaller, input: { metierId: string; fields: MetierBody }): Promise<CommandResult<MetierEvent>> {
  return runMetierCommand(
    caller,
    METIERS_STREAM_ID,
    { type: 'CreateMetier', data: { metierId: input.metierId, fields: input.fields, createdAt: caller.now.toISOString() } },
  );
}

/** Also the HO_stats toggle (§7: it uses the update call). `version`: the trade's, when the edit was made. */
export async function handleUpdateMetier(
  caller: CommandCaller,
  input: { metierId: string; fields: MetierBody; version?: number | undefined },
): Promise<CommandResult<MetierEvent>> {
  const version = await versionOrListed(caller.db, input.metierId, input.version);
  return runMetierCommand(
    caller,
    METIERS_STREAM_ID,
    { type: 'UpdateMetier', data: { metierId: input.metierId, fields: input.fields, updatedAt: caller.now.toISOString() } },
    metierBasis(input.metierId, version),
  );
}

/** Refused while a live installation uses the trade (its SLA delay comes from it). */
export async function handleDeleteMetier(caller: CommandCaller, input: { metierId: string; version?: number | undefined }): Promise<CommandResult<MetierEvent>> {
  const version = await versionOrListed(caller.db, input.metierId, input.version);
  const usedByInstallations = await isMetierUsed(caller.db, input.metierId);
  return runMetierCommand(
    caller,
    METIERS_STREAM_ID,
    { type: 'DeleteMetier', data: { metierId: input.metierId, usedByInstallations, deletedAt: caller.now.toISOString() } },
    metierBasis(input.metierId, version),
  );
}

/**
 * A drag renumbers the list the user saw: every row that carries its version
 * must still be at it, or the new order is refused (409) rather than undoing
 * an edit or a reorder made meanwhile.
 */
export async function handleReorderMetiers(caller: CommandCaller, input: { items: MetierReorderBody }): Promise<CommandResult<MetierEvent>> {
  const listed = new Map((await listMetiers(caller.db)).map((metier) => [metier.id, metier.version]));
  return runMetierCommand(
    caller,
    METIERS_STREAM_ID,
    { type: 'ReorderMetiers', data: { items: input.items.map(({ id, ordre }) => ({ id, ordre })), reorderedAt: caller.now.toISOString() } },
    input.items.flatMap((item) => metierBasis(item.id, item.version ?? listed.get(item.id))),
  );
}
