import { clientEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
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
    const revision = recorded.revision;
    switch (event.type) {
      case 'ClientCreated':
      case 'ClientUpdated': {
        const d = event.data;
        const at = event.type === 'ClientCreated' ? event.data.createdAt : event.data.updatedAt;
        await tx.query(
          `INSERT INTO rm.clients (id, nom, adresse, ville, code_postal, agence_id, created_at, last_revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO UPDATE SET nom = $2, adresse = $3, ville = $4, code_postal = $5, agence_id = $6, last_revision = $8
           WHERE rm.clients.last_revision < $8`,
          [d.clientId, d.nom, d.adresse, d.ville, d.code_postal, d.agenceId, at, revision],
        );
        return [d.clientId];
      }
      case 'ClientDeleted':
        await tx.query(`UPDATE rm.clients SET deleted = true, last_revision = $2 WHERE id = $1 AND last_revision < $2`, [event.data.clientId, revision]);
        return [event.data.clientId];
    }
  }),
};
