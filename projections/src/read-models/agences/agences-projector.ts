import { agenceEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { domainEvent } from '../domain-event.js';

/** Agencies with their opening hours (one row each; hours as the five-day JSON week). */
export const agencesProjector: Projector = {
  name: 'agences',
  version: 1,
  handles: ['AgenceCreated', 'AgenceUpdated', 'AgenceDeleted', 'AgenceHorairesSet'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.agences (
      id uuid PRIMARY KEY,
      nom text NOT NULL,
      adresse text NOT NULL,
      cp_postal text NOT NULL,
      ville text NOT NULL,
      telephone text NOT NULL,
      id_template uuid,
      horaires jsonb,
      deleted boolean NOT NULL DEFAULT false,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS agences_nom ON rm.agences (lower(nom)) WHERE NOT deleted;`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(agenceEventSchema, recorded);
    const revision = recorded.revision;
    switch (event.type) {
      case 'AgenceCreated':
      case 'AgenceUpdated': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.agences (id, nom, adresse, cp_postal, ville, telephone, id_template, last_revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO UPDATE SET nom = $2, adresse = $3, cp_postal = $4, ville = $5, telephone = $6, id_template = $7, last_revision = $8
           WHERE rm.agences.last_revision < $8`,
          [d.agenceId, d.nom, d.adresse, d.cp_postal, d.ville, d.telephone, d.templateId, revision],
        );
        return [d.agenceId];
      }
      case 'AgenceHorairesSet':
        await tx.query(`UPDATE rm.agences SET horaires = $2, last_revision = $3 WHERE id = $1 AND last_revision < $3`, [
          event.data.agenceId,
          JSON.stringify(event.data.horaires),
          revision,
        ]);
        return [event.data.agenceId];
      case 'AgenceDeleted':
        await tx.query(`UPDATE rm.agences SET deleted = true, last_revision = $2 WHERE id = $1 AND last_revision < $2`, [event.data.agenceId, revision]);
        return [event.data.agenceId];
    }
  }),
};
