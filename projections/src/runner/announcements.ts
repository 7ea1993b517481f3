import type pg from 'pg';
import type { Position } from '@fsm/eventstore';
import type { RunnerLogger } from './runner-options.js';

/** Channel on which a committed batch is announced to other processes. */
export const PROJECTION_CHANNEL = 'projections_advanced';

export interface ProjectionAdvance {
  runner: string;
  position: Position;
  /** Ids whose rows changed in this batch (bounded; `truncated` when it was cut). */
  ids: string[];
  truncated: boolean;
}

/** What the runner tells other processes: a batch committed, or every screen should refetch once. */
export type Announcement = ProjectionAdvance | { runner: string; resync: true };

/** Outside any batch transaction on purpose: a pending NOTIFY serialises commits. A lost one only costs latency (watchers poll). */
export async function announce(pool: pg.Pool, logger: RunnerLogger, payload: Announcement): Promise<void> {
  await pool.query('SELECT pg_notify($1, $2)', [PROJECTION_CHANNEL, JSON.stringify(payload)]).catch((error: unknown) => {
    logger.warn({ err: error }, 'projections: notify failed');
  });
}
