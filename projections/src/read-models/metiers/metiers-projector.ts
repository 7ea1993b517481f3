import { metierEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

/**
 * Trades (métiers). They all live in the one catalogue stream, so each row's
 * `last_revision` is that stream's revision of the last event that touched it:
 * still increasing, still a valid guard.
 */
export const metiersProjector: Projector = {
  name: 'metiers',
  version: 1,
  handles: ['MetierCreated', 'MetierUpdated', 'MetierDeleted', 'MetiersReordered'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.metiers (
      id uuid PRIMARY KEY,
      nom text NOT NULL,
      ordre int,
      delai_inter int,
      ho_stats smallint NOT NULL,
      deleted boolean NOT NULL DEFAULT false,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS metiers_ordre ON rm.metiers (ordre NULLS LAST, lower(nom)) WHERE NOT deleted;`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(metierEventSchema, recorded);
    const revision = recorded.revision;
    const row = aggregateRow(tx, 'metiers', revision);
    switch (event.type) {
      case 'MetierCreated':
      case 'MetierUpdated': {
        const d = event.data;
        await row.upsert(d.metierId, { nom: d.nom, ordre: d.ordre, delai_inter: d.delai_inter, ho_stats: d.HO_stats });
        return [d.metierId];
      }
      case 'MetierDeleted':
        await row.markDeleted(event.data.metierId);
        return [event.data.metierId];
      case 'MetiersReordered': {
        const items = event.data.items;
        await tx.query(
          `UPDATE rm.metiers m SET ordre = r.ordre, last_revision = $3
           FROM unnest($1::uuid[], $2::int[]) AS r(id, ordre)
           WHERE m.id = r.id AND m.last_revision < $3`,
          [items.map((item) => item.metierId), items.map((item) => item.ordre), revision],
        );
        return items.map((item) => item.metierId);
      }
    }
  }),
};
