import type pg from 'pg';
import type { Queryable } from './queryable.js';

/** A select whose rows are an answer, in the answer's order. */
export interface SnapshotSelect {
  sql: string;
  params: unknown[];
}

/**
 * What runs in the snapshot before the first row is read: counts and
 * summaries of the same selection (so they agree with the rows), and the
 * caller's ceiling, which refuses by throwing before any row is fetched.
 */
export type SnapshotHead = (db: Queryable) => Promise<void>;

/**
 * The one way a long answer is read for streaming (issue 28): one snapshot (a
 * read-only repeatable-read transaction on one connection), `head` first, then
 * `select` through a cursor, `pageSize` rows per FETCH, so the process holds one
 * page at a time whatever the selection. A year of an agency at 1M tickets is
 * 60,000 tickets and 96 MB of JSON; holding it whole took the API process from
 * 270 MB to 1 GB. Stopping the iteration early (the client went away, the head
 * refused) rolls back and gives the connection back.
 *
 * `select` null: nothing can match (a malformed filter id); no connection is taken.
 */
export async function* snapshotPages<Row>(
  pool: Pick<pg.Pool, 'connect'>,
  select: SnapshotSelect | null,
  pageSize: number,
  head?: SnapshotHead,
): AsyncGenerator<Row[], void, undefined> {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`page size ${pageSize}`);
  if (select === null) return;
  const client = await pool.connect();
  let finished = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (head) await head(client);
    await client.query(`DECLARE snapshot_rows NO SCROLL CURSOR FOR ${select.sql}`, select.params);
    for (;;) {
      const { rows } = await client.query<Row & pg.QueryResultRow>(`FETCH ${pageSize} FROM snapshot_rows`);
      if (rows.length > 0) yield rows;
      if (rows.length < pageSize) break;
    }
    await client.query('COMMIT');
    finished = true;
  } finally {
    if (!finished) await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

/** The number a `SELECT count(*)::int AS total ...` (or a sum) answers. */
export async function selectTotal(db: Queryable, sql: string, params: readonly unknown[]): Promise<number> {
  const { rows } = await db.query<{ total: number }>(sql, [...params]);
  return rows[0]?.total ?? 0;
}
