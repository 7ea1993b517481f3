import { userEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
import { aggregateRow } from '../aggregate-rows.js';
import { domainEvent } from '../domain-event.js';

/**
 * Staff users and télésurveillance accounts, their permission sets and (for
 * télésurveillance) the agencies they act for. Read on every request to build
 * the caller's principal, so a revoked permission applies at once.
 */
export const usersProjector: Projector = {
  name: 'users',
  version: 1,
  handles: ['UserCreated', 'UserUpdated', 'UserDeleted', 'UserPermissionsSet', 'TelesurvAgencesSet'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.users (
      id uuid PRIMARY KEY,
      role text NOT NULL,
      nom text NOT NULL,
      prenom text NOT NULL,
      email text NOT NULL,
      telephone text,
      agence_id uuid,
      permissions text[] NOT NULL DEFAULT '{}',
      telesurv_agence_ids uuid[] NOT NULL DEFAULT '{}',
      deleted boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      last_revision int NOT NULL
    );
    CREATE UNIQUE INDEX IF NOT EXISTS users_email ON rm.users (lower(email)) WHERE NOT deleted;
    CREATE INDEX IF NOT EXISTS users_agence ON rm.users (agence_id) WHERE NOT deleted;`,
  apply: eventByEvent(async (tx, recorded) => {
    const event = domainEvent(userEventSchema, recorded);
    const row = aggregateRow(tx, 'users', recorded.revision);
    switch (event.type) {
      case 'UserCreated':
      case 'UserUpdated': {
        const d = event.data;
        const at = event.type === 'UserCreated' ? event.data.createdAt : event.data.updatedAt;
        await row.upsert(d.userId, { role: d.role, nom: d.nom, prenom: d.prenom, email: d.email, telephone: d.telephone, agence_id: d.agenceId }, { created_at: at });
        return [d.userId];
      }
      case 'UserPermissionsSet':
        await row.update(event.data.userId, { permissions: event.data.permissions });
        return [event.data.userId];
      case 'TelesurvAgencesSet':
        await row.update(event.data.userId, { telesurv_agence_ids: event.data.agenceIds });
        return [event.data.userId];
      case 'UserDeleted':
        await row.markDeleted(event.data.userId);
        return [event.data.userId];
    }
  }),
};
