import type { Queryable } from '@fsm/projections';

/**
 * Runs the API's own DDL (auth, idempotency) once at a time across instances
 * starting together. Lock and DDL go in one statement string: one implicit
 * transaction on one connection of the pool, so the transaction-scoped lock is
 * held exactly while the DDL runs (a session lock taken by one query and
 * released by the next could land on two different connections).
 */
export async function migrateUnderLock(db: Queryable, name: string, ddl: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('${name.replace(/'/g, "''")}')); ${ddl}`);
}
