import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

/**
 * May a caller of this scope see the file `ref` as a ticket photo? True when
 * a ticket in scope holds it (GET /api/files with a session instead of a
 * signed link, issue 32 item 11).
 */
export async function ticketPhotoInScope(db: Queryable, scope: AgenceScope, ref: string): Promise<boolean> {
  const params: unknown[] = [ref];
  const { rows } = await db.query(`SELECT 1 FROM rm.tickets t WHERE t.photo_ref = $1${scopeClause(scope, 't.agence_id', params)} LIMIT 1`, params);
  return rows.length > 0;
}
