import type pg from 'pg';
import { formatPostgresPosition } from '@fsm/eventstore';

/**
 * Position of the newest committed event, ignoring the subscribers'
 * visibility bound. `store.headPosition()` stops below the oldest transaction
 * still running anywhere on the server (other databases included), so on a
 * shared server it can lag behind appends that have long committed: waiting
 * for "checkpoint ≥ headPosition()" would then stop early.
 */
export async function lastCommittedPosition(pool: pg.Pool | pg.PoolClient): Promise<string | null> {
  const { rows } = await pool.query<{ transaction_id: string; global_position: string }>(
    `SELECT transaction_id, global_position FROM es.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  const row = rows[0];
  return row ? formatPostgresPosition(row.transaction_id, row.global_position) : null;
}
