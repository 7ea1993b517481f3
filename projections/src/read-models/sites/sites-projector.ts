import { clientEventSchema, siteEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

const handledSiteEvents = siteEventSchema.options.map((option) => option.shape.type.value);

/**
 * Sites, with their client's agency copied in (`agence_id`) so scope checks
 * need no join, and `client_deleted` so a deleted client's sites disappear
 * without an event per site. Those copied facts are guarded by the client
 * stream's revision they come from (`client_revision`), as the site's own
 * facts are by `last_revision`.
 *
 * Reads rm.clients when a site is created or moved: the runner applies the
 * clients projector's share of a batch before this one's, so the client's row
 * is there (at its state after the batch: `client_revision` then makes the
 * batch's later client events change nothing, and the rows are those of one
 * event at a time). The clients projector must run in the same runner.
 */
export const sitesProjector: Projector = {
  name: 'sites',
  version: 1,
  readsFrom: ['clients'],
  handles: [...handledSiteEvents, 'ClientUpdated', 'ClientDeleted'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.sites (
      id uuid PRIMARY KEY,
      client_id uuid NOT NULL,
      nom text NOT NULL,
      adresse text NOT NULL,
      ville text NOT NULL,
      code_postal text NOT NULL,
      agence_id uuid,
      deleted boolean NOT NULL DEFAULT false,
      client_deleted boolean NOT NULL DEFAULT false,
      client_revision int NOT NULL,
      created_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS sites_client ON rm.sites (client_id, lower(nom)) WHERE NOT deleted AND NOT client_deleted;
    CREATE INDEX IF NOT EXISTS sites_agence ON rm.sites (agence_id) WHERE NOT deleted AND NOT client_deleted;
    CREATE INDEX IF NOT EXISTS sites_client_all ON rm.sites (client_id);`,
  apply: eventByEvent(async (tx, recorded) => {
    if (recorded.type === 'ClientUpdated' || recorded.type === 'ClientDeleted') {
      const event = domainEvent(clientEventSchema, recorded);
      switch (event.type) {
        case 'ClientUpdated': {
          const { rows } = await tx.query<{ id: string }>(
            `UPDATE rm.sites SET agence_id = $2, client_revision = $3 WHERE client_id = $1 AND client_revision < $3 RETURNING id`,
            [event.data.clientId, event.data.agenceId, recorded.revision],
          );
          return rows.map((row) => row.id);
        }
        case 'ClientDeleted': {
          const { rows } = await tx.query<{ id: string }>(
            `UPDATE rm.sites SET client_deleted = true, client_revision = $2 WHERE client_id = $1 AND client_revision < $2 RETURNING id`,
            [event.data.clientId, recorded.revision],
          );
          return rows.map((row) => row.id);
        }
        default:
          return [];
      }
    }
    const event = domainEvent(siteEventSchema, recorded);
    const revision = recorded.revision;
    switch (event.type) {
      case 'SiteCreated':
      case 'SiteUpdated': {
        const d = event.data;
        const at = event.type === 'SiteCreated' ? event.data.createdAt : event.data.updatedAt;
        await tx.query(
          `INSERT INTO rm.sites (id, client_id, nom, adresse, ville, code_postal, agence_id, client_deleted, client_revision, created_at, last_revision)
           SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, c.agence_id, coalesce(c.deleted, false), coalesce(c.last_revision, -1),
                  $7::timestamptz, $8::int
           FROM (VALUES (1)) AS one LEFT JOIN rm.clients c ON c.id = $2::uuid
           ON CONFLICT (id) DO UPDATE SET client_id = EXCLUDED.client_id, nom = EXCLUDED.nom, adresse = EXCLUDED.adresse, ville = EXCLUDED.ville,
             code_postal = EXCLUDED.code_postal, agence_id = EXCLUDED.agence_id, client_deleted = EXCLUDED.client_deleted,
             client_revision = EXCLUDED.client_revision, last_revision = EXCLUDED.last_revision
           WHERE rm.sites.last_revision < EXCLUDED.last_revision`,
          [d.siteId, d.clientId, d.nom, d.adresse, d.ville, d.code_postal, at, revision],
        );
        return [d.siteId];
      }
      case 'SiteDeleted':
        await aggregateRow(tx, 'sites', revision).markDeleted(event.data.siteId);
        return [event.data.siteId];
    }
  }),
};
