import type pg from 'pg';
import { JOBS_SCHEMA } from '../reactor.js';

/*
 * `jobs.export_progress`: where a running export says how far it is. Job
 * bookkeeping like `jobs.sent_mails`, not a projection: the API reads it for
 * GET /api/exports/{id} while the export runs (the BullMQ job carries the same
 * value through job.updateProgress, but the API has no BullMQ client and does
 * not know the workers' queue prefix). Once the export is done or failed, the
 * export's stream is the answer and this row is only history.
 */

const EXPORT_PROGRESS_TABLE = `${JOBS_SCHEMA}.export_progress`;

function ignoreDuplicate(error: unknown): void {
  // Two processes creating the same schema/table at once.
  const code = (error as { code?: string }).code;
  if (code !== '23505' && code !== '42P07' && code !== '42P06') throw error;
}

export async function migrateExportProgress(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${JOBS_SCHEMA}`).catch(ignoreDuplicate);
  await pool
    .query(
      `CREATE TABLE IF NOT EXISTS ${EXPORT_PROGRESS_TABLE} (
         export_id uuid PRIMARY KEY,
         progress int NOT NULL,
         rows int NOT NULL,
         total int NOT NULL,
         updated_at timestamptz NOT NULL DEFAULT now()
       )`,
    )
    .catch(ignoreDuplicate);
}

/** Never moves backwards: a retried job restarting from 0 does not make the screen jump back. */
export async function saveExportProgress(pool: pg.Pool, exportId: string, progress: number, rows: number, total: number): Promise<void> {
  await pool.query(
    `INSERT INTO ${EXPORT_PROGRESS_TABLE} (export_id, progress, rows, total) VALUES ($1, $2, $3, $4)
     ON CONFLICT (export_id) DO UPDATE SET progress = GREATEST(${EXPORT_PROGRESS_TABLE}.progress, EXCLUDED.progress),
       rows = EXCLUDED.rows, total = EXCLUDED.total, updated_at = now()`,
    [exportId, progress, rows, total],
  );
}
