import type { Queryable } from '@fsm/projections';

/**
 * What a running export last wrote to `jobs.export_progress` (the workers'
 * job bookkeeping, created by them); null before it starts, and when no worker
 * has ever started on this database.
 */
export async function findExportProgress(db: Queryable, exportId: string): Promise<{ progress: number; rows: number } | null> {
  try {
    const { rows } = await db.query<{ progress: number; rows: number }>('SELECT progress, rows FROM jobs.export_progress WHERE export_id = $1', [exportId]);
    return rows[0] ?? null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '42P01' || code === '3F000') return null;
    throw error;
  }
}
