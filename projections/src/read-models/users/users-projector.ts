import { userEventSchema } from '@fsm/contracts';
import { eventByEvent, type Projector } from '../../projector.js';
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
    const revision = recorded.revision;
    switch (event.type) {
      case 'UserCreated':
      case 'UserUpdated': {
        const d = event.data;
        const at = event.type === 'UserCreated' ? event.data.createdAt : event.data.updatedAt;
        await tx.query(
          `INSERT INTO rm.users (id, role, nom, prenom, email, telephone, agence_id, created_at, last_revision)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (id) DO UPDATE SET role = $2, nom = $3, prenom = $4, email = $5, telephone = $6, agence_id = $7, last_revision = $9
           WHERE rm.users.last_revision < $9`,
          [d.userId, d.role, d.nom, d.prenom, d.email, d.telephone, d.agenceId, at, revision],
        );
        return [d.userId];
      }
      case 'UserPermissionsSet':
        await tx.query(`UPDATE rm.users SET permissions = $2, last_revision = $3 WHERE id = $1 AND last_revision < $3`, [
          event.data.userId,
          event.data.permissions,
          revision,
        ]);
        return [event.data.userId];
      case 'TelesurvAgencesSet':
        await tx.query(`UPDATE rm.users SET telesurv_agence_ids = $2, last_revision = $3 WHERE id = $1 AND last_revision < $3`, [
          event.data.userId,
          event.data.agenceIds,
          revision,
        ]);
        return [event.data.userId];
      case 'UserDeleted':
        await tx.query(`UPDATE rm.users SET deleted = true, last_revision = $2 WHERE id = $1 AND last_revision < $2`, [event.data.userId, revision]);
        return [event.data.userId];
    }
  }),
};
