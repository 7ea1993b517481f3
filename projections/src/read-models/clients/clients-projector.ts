import { clientEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

/**
 * Clients (one row each). A deleted client keeps its row with `deleted`: its
 * sites, installations and contacts are hidden by their own read models (no
 * event is written per child).
 */
export const clientsProjector: Projector = {
  name: 'clients',
  version: 1,
  handles: ['ClientCreated', 'ClientUpdated', 'ClientDeleted'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.clients (
      id uuid PRIMARY KEY,
      nom text NOT NULL,
      adresse text NOT NULL,
      ville text NOT NULL,
      code_postal text NOT NULL,
      agence_id uuid NOT NULL,
      deleted boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE INDEX IF NOT EXISTS clients_nom ON rm.clients (lower(nom), id) WHERE NOT deleted;
    CREATE INDEX IF NOT EXISTS clients_agence ON rm.clients (agence_id, lower(nom)) WHERE NOT deleted;`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(clientEventSchema, recorded);
    const row = aggregateRow(tx, 'clients', recorded.revision);
    switch (event.type) {
      case 'ClientCreated':
      case 'ClientUpdated': {
        const d = event.data;
        const at = event.type === 'ClientCreated' ? event.data.createdAt : event.data.updatedAt;
        await row.upsert(d.clientId, { nom: d.nom, adresse: d.adresse, ville: d.ville, code_postal: d.code_postal, agence_id: d.agenceId }, { created_at: at });
        return [d.clientId];
      }
      case 'ClientDeleted':
        await row.markDeleted(event.data.clientId);
        return [event.data.clientId];
    }
  }),
};
