import { clientEventSchema, installationEventSchema, metierEventSchema, siteEventSchema } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

const installationEventTypes: readonly string[] = installationEventSchema.options.map((option) => option.shape.type.value);
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/**
 * Installations, with what their lists and scope checks need copied in: the
 * métier's name (kept in step when it is renamed), the site's client and the
 * client's agency, and whether the site or the client was deleted (their
 * installations disappear with them, without an event per installation).
 * Each copied fact is guarded by the revision of the stream it comes from
 * (`site_revision`, `client_revision`, `metier_revision`), as the
 * installation's own facts are by `last_revision`.
 *
 * Reads rm.sites, rm.clients and rm.metiers when an installation is created or
 * moved, and rm.clients when a site moves to another client: the runner
 * applies their projectors' share of a batch before this one's, so those rows
 * are there (at their state after the batch: the revision guards above then
 * make the batch's later source events change nothing). Their projectors must
 * run in the same runner.
 */
export const installationsProjector: Projector = {
  name: 'installations',
  version: 1,
  readsFrom: ['clients', 'sites', 'metiers'],
  handles: [...installationEventTypes, 'SiteUpdated', 'SiteDeleted', 'ClientUpdated', 'ClientDeleted', 'MetierUpdated'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.installations (
      id uuid PRIMARY KEY,
      site_id uuid NOT NULL,
      nom text NOT NULL,
      id_metier uuid NOT NULL,
      metier_nom text,
      description text NOT NULL,
      delai int NOT NULL,
      astreinte smallint NOT NULL,
      client_id uuid,
      agence_id uuid,
      deleted boolean NOT NULL DEFAULT false,
      site_deleted boolean NOT NULL DEFAULT false,
      client_deleted boolean NOT NULL DEFAULT false,
      site_revision int NOT NULL,
      client_revision int NOT NULL,
      metier_revision int NOT NULL,
      created_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS installations_site ON rm.installations (site_id, lower(nom)) WHERE NOT deleted AND NOT site_deleted AND NOT client_deleted;
    CREATE INDEX IF NOT EXISTS installations_client ON rm.installations (client_id, lower(nom)) WHERE NOT deleted AND NOT site_deleted AND NOT client_deleted;
    CREATE INDEX IF NOT EXISTS installations_agence ON rm.installations (agence_id) WHERE NOT deleted AND NOT site_deleted AND NOT client_deleted;
    CREATE INDEX IF NOT EXISTS installations_metier ON rm.installations (id_metier);
    CREATE INDEX IF NOT EXISTS installations_site_all ON rm.installations (site_id);
    CREATE INDEX IF NOT EXISTS installations_client_all ON rm.installations (client_id);`,
  apply: eventByEvent(async (tx, recorded) => {
    if (installationEventTypes.includes(recorded.type)) return applyInstallationEvent(tx, recorded);
    switch (recorded.type) {
      case 'SiteUpdated':
      case 'SiteDeleted':
        return applySiteEvent(tx, recorded);
      case 'ClientUpdated':
      case 'ClientDeleted':
        return applyClientEvent(tx, recorded);
      case 'MetierUpdated':
        return applyMetierEvent(tx, recorded);
      default:
        return [];
    }
  }),
};

async function applyInstallationEvent(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
  const event = domainEvent(installationEventSchema, recorded);
  const revision = recorded.revision;
  switch (event.type) {
    case 'InstallationCreated':
    case 'InstallationUpdated': {
      const d = event.data;
      const at = event.type === 'InstallationCreated' ? event.data.createdAt : event.data.updatedAt;
      await tx.query(
        `INSERT INTO rm.installations (id, site_id, nom, id_metier, metier_nom, description, delai, astreinte, client_id, agence_id, site_deleted, client_deleted,
                                       site_revision, client_revision, metier_revision, created_at, last_revision)
         SELECT $1::uuid, $2::uuid, $3::text, $4::uuid, m.nom, $5::text, $6::int, $7::smallint, s.client_id, s.agence_id,
                coalesce(s.deleted, false), coalesce(s.client_deleted, false),
                coalesce(s.last_revision, -1), coalesce(s.client_revision, -1), coalesce(m.last_revision, -1), $8::timestamptz, $9::int
         FROM (VALUES (1)) AS one
         LEFT JOIN rm.sites s ON s.id = $2::uuid
         LEFT JOIN rm.metiers m ON m.id = $4::uuid
         ON CONFLICT (id) DO UPDATE SET site_id = EXCLUDED.site_id, nom = EXCLUDED.nom, id_metier = EXCLUDED.id_metier, metier_nom = EXCLUDED.metier_nom,
           description = EXCLUDED.description, delai = EXCLUDED.delai, astreinte = EXCLUDED.astreinte, client_id = EXCLUDED.client_id,
           agence_id = EXCLUDED.agence_id, site_deleted = EXCLUDED.site_deleted, client_deleted = EXCLUDED.client_deleted, site_revision = EXCLUDED.site_revision,
           client_revision = EXCLUDED.client_revision, metier_revision = EXCLUDED.metier_revision, last_revision = EXCLUDED.last_revision
         WHERE rm.installations.last_revision < EXCLUDED.last_revision`,
        [d.installationId, d.siteId, d.nom, d.metierId, d.description, d.delai, d.astreinte, at, revision],
      );
      return [d.installationId];
    }
    case 'InstallationDeleted':
      await aggregateRow(tx, 'installations', revision).markDeleted(event.data.installationId);
      return [event.data.installationId];
  }
}

/** A site moved to another client, or deleted: its installations follow. */
async function applySiteEvent(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
  const event = domainEvent(siteEventSchema, recorded);
  switch (event.type) {
    case 'SiteUpdated': {
      const { rows } = await tx.query<{ id: string }>(
        `WITH c AS (
           SELECT $2::uuid AS client_id, client.agence_id, coalesce(client.deleted, false) AS deleted, coalesce(client.last_revision, -1) AS revision
           FROM (VALUES (1)) AS one LEFT JOIN rm.clients client ON client.id = $2::uuid
         )
         UPDATE rm.installations i
         SET client_id = c.client_id, agence_id = c.agence_id, client_deleted = c.deleted, client_revision = c.revision, site_revision = $3
         FROM c
         WHERE i.site_id = $1 AND i.site_revision < $3
         RETURNING i.id`,
        [event.data.siteId, event.data.clientId, recorded.revision],
      );
      return ids(rows);
    }
    case 'SiteDeleted': {
      const { rows } = await tx.query<{ id: string }>(
        `UPDATE rm.installations SET site_deleted = true, site_revision = $2 WHERE site_id = $1 AND site_revision < $2 RETURNING id`,
        [event.data.siteId, recorded.revision],
      );
      return ids(rows);
    }
    default:
      return [];
  }
}

/** A client moved to another agency, or deleted: the installations of its sites follow. */
async function applyClientEvent(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
  const event = domainEvent(clientEventSchema, recorded);
  switch (event.type) {
    case 'ClientUpdated': {
      const { rows } = await tx.query<{ id: string }>(
        `UPDATE rm.installations SET agence_id = $2, client_revision = $3 WHERE client_id = $1 AND client_revision < $3 RETURNING id`,
        [event.data.clientId, event.data.agenceId, recorded.revision],
      );
      return ids(rows);
    }
    case 'ClientDeleted': {
      const { rows } = await tx.query<{ id: string }>(
        `UPDATE rm.installations SET client_deleted = true, client_revision = $2 WHERE client_id = $1 AND client_revision < $2 RETURNING id`,
        [event.data.clientId, recorded.revision],
      );
      return ids(rows);
    }
    default:
      return [];
  }
}

/** A renamed métier: its installations show the new name. */
async function applyMetierEvent(tx: PoolClient, recorded: RecordedEvent): Promise<string[]> {
  const event = domainEvent(metierEventSchema, recorded);
  if (event.type !== 'MetierUpdated') return [];
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE rm.installations SET metier_nom = $2, metier_revision = $3 WHERE id_metier = $1 AND metier_revision < $3 RETURNING id`,
    [event.data.metierId, event.data.nom, recorded.revision],
  );
  return ids(rows);
}
