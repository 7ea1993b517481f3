import { metierEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
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
    switch (event.type) {
      case 'MetierCreated':
      case 'MetierUpdated': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.metiers (id, nom, ordre, delai_inter, ho_stats, last_revision)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (id) DO UPDATE SET nom = $2, ordre = $3, delai_inter = $4, ho_stats = $5, last_revision = $6
           WHERE rm.metiers.last_revision < $6`,
          [d.metierId, d.nom, d.ordre, d.delai_inter, d.HO_stats, revision],
        );
        return [d.metierId];
      }
      case 'MetierDeleted':
        await tx.query(`UPDATE rm.metiers SET deleted = true, last_revision = $2 WHERE id = $1 AND last_revision < $2`, [event.data.metierId, revision]);
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
