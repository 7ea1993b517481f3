import type pg from 'pg';

/** A pool or a client: queries run on either (a route's pool, a test's transaction). */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** Which agencies a caller may see: every one (admin_plus) or a list. */
export type AgenceScope = 'all' | readonly string[];

/** `AND <column> = ANY($n)` when scoped, nothing when not; returns the SQL and pushes the parameter. */
export function scopeClause(scope: AgenceScope, column: string, params: unknown[]): string {
  if (scope === 'all') return '';
  params.push([...scope]);
  return ` AND ${column} = ANY($${params.length}::uuid[])`;
}

/**
 * scopeClause for a list read in index order: one agency (what a scope always
 * is short of 'all') written as an equality, so an (agence_id, created_at ...)
 * index is walked in order and a page stops after its rows; `= ANY(array)`
 * makes Postgres 15 fetch every matching row and sort them.
 */
export function orderedScopeClause(scope: AgenceScope, column: string, params: unknown[]): string {
  if (scope !== 'all' && scope.length === 1) {
    params.push(scope[0]);
    return ` AND ${column} = $${params.length}::uuid`;
  }
  return scopeClause(scope, column, params);
}

/** Whether `sql` (a `SELECT 1 ...`, its own LIMIT included) finds a row. */
export async function findsRow(db: Queryable, sql: string, params: readonly unknown[]): Promise<boolean> {
  const { rows } = await db.query(sql, [...params]);
  return rows.length > 0;
}
