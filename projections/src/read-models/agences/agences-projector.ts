import { agenceEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
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
    const row = aggregateRow(tx, 'agences', recorded.revision);
    switch (event.type) {
      case 'AgenceCreated':
      case 'AgenceUpdated': {
        const d = event.data;
        await row.upsert(d.agenceId, { nom: d.nom, adresse: d.adresse, cp_postal: d.cp_postal, ville: d.ville, telephone: d.telephone, id_template: d.templateId });
        return [d.agenceId];
      }
      case 'AgenceHorairesSet':
        await row.update(event.data.agenceId, { horaires: JSON.stringify(event.data.horaires) });
        return [event.data.agenceId];
      case 'AgenceDeleted':
        await row.markDeleted(event.data.agenceId);
        return [event.data.agenceId];
    }
  }),
};
