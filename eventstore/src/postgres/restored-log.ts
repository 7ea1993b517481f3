import pg from 'pg';
import { assertSchemaName } from './schema.js';
import { RebaseRefusedError, otherSessions, rebasePositions, type RebaseResult } from './rebase-positions.js';

/*
 * Issue 32, item 15: a dump restored onto another server and started without
 * `npm run restore-events`. Its events carry the old server's transaction ids,
 * ahead of this server's counter: readers see nothing and every append to a
 * restored stream fails (it used to be a 500 with the append's internal text).
 * This is the one case that can be told from the database alone: an event
 * whose transaction id this server has not handed out yet.
 */

export const RESTORE_EVENTS_COMMAND = 'npm run restore-events';

/** What the operator reads (French, then English, since it ends up in a terminal or a deployment log). */
export function restoreNeededMessage(others: readonly string[] = []): string {
  const who = others.length > 0 ? ` (${others.join(', ')})` : '';
  return (
    `Base restaurée sans recalage du journal : ses événements portent les numéros de transaction d'un autre serveur. ` +
    `Arrêtez les autres sessions connectées à la base${who}, lancez \`${RESTORE_EVENTS_COMMAND}\`, puis redémarrez. ` +
    `/ Database restored without re-basing the event log: stop the other sessions connected to it, run \`${RESTORE_EVENTS_COMMAND}\`, then start again.`
  );
}

export class RestoreNeededError extends Error {
  constructor(readonly others: readonly string[]) {
    super(restoreNeededMessage(others));
    this.name = 'RestoreNeededError';
  }
}

interface Queryable {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** True when the log holds an event whose transaction id is ahead of this server's counter (false without a log). */
export async function restoredLogNeedsRebase(db: Queryable, schema = 'es'): Promise<boolean> {
  assertSchemaName(schema);
  const { rows: log } = await db.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [`${schema}.events`]);
  if (!log[0]?.found) return false;
  // max() walks the (transaction_id, global_position) index from its end: one row read.
  const { rows } = await db.query<{ ahead: boolean | null }>(
    `SELECT (SELECT max(transaction_id) FROM "${schema}".events) >= pg_snapshot_xmax(pg_current_snapshot()) AS ahead`,
  );
  return rows[0]?.ahead === true;
}

export interface StartLogger {
  info(details: object, message: string): void;
}

/**
 * Before a role opens its pool: a restored log that was not re-based is
 * re-based here when nothing else is connected to the database (the same
 * `rebasePositions` as `npm run restore-events`, which itself refuses
 * otherwise); with other sessions connected, the start is refused with
 * RestoreNeededError naming the command. Its own one-connection pool, so the
 * role's pool is not one of the "other sessions".
 */
export async function rebaseRestoredLogAtStart(connectionString: string, logger: StartLogger, options: { schema?: string } = {}): Promise<RebaseResult | null> {
  const pool = new pg.Pool({ connectionString, max: 1, application_name: 'fsm-start-restore-check' });
  pool.on('error', () => undefined);
  try {
    if (!(await restoredLogNeedsRebase(pool, options.schema))) return null;
    try {
      const result = await rebasePositions(pool, options);
      logger.info({ ...result }, `journal restauré recalé automatiquement au démarrage (comme \`${RESTORE_EVENTS_COMMAND}\`)`);
      return result;
    } catch (error) {
      if (!(error instanceof RebaseRefusedError)) throw error;
      // Another role starting at the same moment may have re-based it meanwhile.
      if (!(await restoredLogNeedsRebase(pool, options.schema))) return null;
      throw new RestoreNeededError(await otherSessions(pool));
    }
  } finally {
    await pool.end();
  }
}
