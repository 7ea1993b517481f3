import { findsRow, scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

export interface UserRow {
  id: string;
  role: string;
  nom: string;
  prenom: string;
  email: string;
  telephone: string | null;
  agence_id: string | null;
  agence_nom: string | null;
  permissions: string[];
  telesurv_agence_ids: string[];
  /** Revision of the fiche's stream when it last changed: what an edit sends back as its version. */
  version: number;
}

/** The columns of a `UserRow` (users `u`, agencies `a`): the API joins its credentials onto it. */
export const USER_ROW_SELECT = `SELECT u.id, u.role, u.nom, u.prenom, u.email, u.telephone, u.agence_id, a.nom AS agence_nom, u.permissions, u.telesurv_agence_ids, u.last_revision AS version
  FROM rm.users u LEFT JOIN rm.agences a ON a.id = u.agence_id`;
const SELECT = USER_ROW_SELECT;

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.id = $1 AND NOT u.deleted`, [id]);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`${SELECT} WHERE lower(u.email) = lower($1) AND NOT u.deleted`, [email.trim()]);
  return rows[0] ?? null;
}

/** Whether another live account already uses this e-mail (case-insensitive). */
export async function isEmailTaken(db: Queryable, email: string, exceptUserId?: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.users WHERE lower(email) = lower($1) AND NOT deleted AND ($2::uuid IS NULL OR id <> $2)`, [
    email.trim(),
    exceptUserId ?? null,
  ]);
}

/** Staff users (not télésurveillance accounts) in scope, by name. */
export async function listStaffUsers(db: Queryable, scope: AgenceScope): Promise<UserRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<UserRow>(
    `${SELECT} WHERE NOT u.deleted AND u.role <> 'telesurveillance'${scopeClause(scope, 'u.agence_id', params)} ORDER BY lower(u.nom), lower(u.prenom), u.id`,
    params,
  );
  return rows;
}

export async function listTelesurvAccounts(db: Queryable): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(`${SELECT} WHERE NOT u.deleted AND u.role = 'telesurveillance' ORDER BY lower(u.nom), u.id`);
  return rows;
}

/** Whether any live user still belongs to the agency (refuses deleting it). */
export async function agenceHasUsers(db: Queryable, agenceId: string): Promise<boolean> {
  return findsRow(db, `SELECT 1 FROM rm.users WHERE agence_id = $1 AND NOT deleted LIMIT 1`, [agenceId]);
}
