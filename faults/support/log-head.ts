import type pg from 'pg';

/**
 * The position of the last event of the log in subscription order, straight
 * from the table (once every writer has finished): what a read model that
 * holds the whole log must have reached.
 */
export async function logHead(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ position: string }>(
    `SELECT lpad(transaction_id::text, 20, '0') || '-' || lpad(global_position::text, 20, '0') AS position
       FROM es.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
  );
  if (!rows[0]) throw new Error('empty log');
  return rows[0].position;
}
