import { interlocuteurEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

/**
 * Contacts of a client and their affectations to the client's sites and
 * installations (the whole set, replaced by each save). A contact of a deleted
 * client, and an affectation to a deleted (or hidden) site or installation,
 * are filtered out by the queries, which join the live rows.
 */
export const interlocuteursProjector: Projector = {
  name: 'interlocuteurs',
  version: 1,
  handles: ['InterlocuteurCreated', 'InterlocuteurUpdated', 'InterlocuteurDeleted'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.interlocuteurs (
      id uuid PRIMARY KEY,
      client_id uuid NOT NULL,
      nom text NOT NULL,
      prenom text NOT NULL,
      fonction text,
      telephone text,
      email text,
      deleted boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS interlocuteurs_client ON rm.interlocuteurs (client_id, lower(nom), lower(prenom)) WHERE NOT deleted;
    CREATE TABLE IF NOT EXISTS rm.interlocuteur_affectations (
      interlocuteur_id uuid NOT NULL,
      niveau text NOT NULL CHECK (niveau IN ('site', 'installation')),
      niveau_id uuid NOT NULL,
      ordre int NOT NULL,
      PRIMARY KEY (interlocuteur_id, niveau, niveau_id)
    );
    CREATE INDEX IF NOT EXISTS interlocuteur_affectations_niveau ON rm.interlocuteur_affectations (niveau, niveau_id);`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(interlocuteurEventSchema, recorded);
    const row = aggregateRow(tx, 'interlocuteurs', recorded.revision);
    switch (event.type) {
      case 'InterlocuteurCreated':
      case 'InterlocuteurUpdated': {
        const d = event.data;
        const at = event.type === 'InterlocuteurCreated' ? event.data.createdAt : event.data.updatedAt;
        const wrote = await row.upsert(
          d.interlocuteurId,
          { client_id: d.clientId, nom: d.nom, prenom: d.prenom, fonction: d.fonction, telephone: d.telephone, email: d.email },
          { created_at: at },
        );
        // An older revision changed nothing above: its affectations must not replace newer ones either.
        if (!wrote) return [];
        await tx.query(`DELETE FROM rm.interlocuteur_affectations WHERE interlocuteur_id = $1`, [d.interlocuteurId]);
        const niveaux = [...d.siteIds.map(() => 'site'), ...d.installationIds.map(() => 'installation')];
        await tx.query(
          `INSERT INTO rm.interlocuteur_affectations (interlocuteur_id, niveau, niveau_id, ordre)
           SELECT $1, a.niveau, a.niveau_id, a.ordre FROM unnest($2::text[], $3::uuid[]) WITH ORDINALITY AS a(niveau, niveau_id, ordre)
           ON CONFLICT DO NOTHING`,
          [d.interlocuteurId, niveaux, [...d.siteIds, ...d.installationIds]],
        );
        return [d.interlocuteurId];
      }
      case 'InterlocuteurDeleted':
        await row.markDeleted(event.data.interlocuteurId);
        return [event.data.interlocuteurId];
    }
  }),
};
