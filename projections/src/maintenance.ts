import type pg from 'pg';
import type { EventStore } from '@fsm/eventstore';
import type { ProjectionRunner } from './runner/runner.js';
import { RUNNER_SCHEMA, readStoppedProjectors, type StoppedProjector } from './stopped-projectors.js';

/*
 * What `npm run rebuild` and `npm run retry-projections` do, apart from
 * printing: ask the active runner (in this process or another), then wait and
 * say which read models are stopped at the end.
 */

export interface MaintenanceOptions {
  pool: pg.Pool;
  store: EventStore;
  /** Migrated; started here (it becomes the active runner when no other is). */
  runner: ProjectionRunner;
  pollMs?: number;
}

export interface RebuildOutcome {
  /** Whether this process did the work (no other runner was active). */
  ranHere: boolean;
  /** Read models the rebuild left stopped on an event; every other one reached the head. */
  stopped: StoppedProjector[];
}

export interface RetryOutcome {
  ranHere: boolean;
  /** The read models that were stopped when the retry was asked for. */
  retried: StoppedProjector[];
  /** Those that stopped again (on the same event or another). */
  stopped: StoppedProjector[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Rebuilds every read model from the whole log beside the live ones and
 * returns once they are swapped in (blue-green.ts). A read model that fails
 * on an event stops there; the rebuild still completes for the others.
 */
export async function rebuildReadModels({ pool, store, runner, pollMs = 200 }: MaintenanceOptions): Promise<RebuildOutcome> {
  const head = await store.headPosition();
  await runner.requestRebuild();
  await runner.start();
  const ranHere = runner.isActive;
  for (;;) {
    const { rows } = await pool.query<{ position: string | null; rebuild_requested: boolean }>(
      `SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
      [runner.name],
    );
    const row = rows[0];
    if (row && !row.rebuild_requested && (head === null || (row.position !== null && store.comparePositions(row.position, head) >= 0))) break;
    await pause(pollMs);
  }
  return { ranHere, stopped: await readStoppedProjectors(pool, runner.name) };
}

/**
 * Tries the stopped read models again from their own checkpoints, without a
 * restart (after a fix that needed none: a dropped index put back, a setting):
 * waits until each has either caught up with the others or stopped again.
 */
export async function retryStoppedReadModels({ pool, runner, pollMs = 200 }: MaintenanceOptions): Promise<RetryOutcome> {
  const retried = await readStoppedProjectors(pool, runner.name);
  if (retried.length === 0) return { ranHere: false, retried, stopped: [] };
  const askedAt = await runner.requestRetry();
  await runner.start();
  const ranHere = runner.isActive;
  for (;;) {
    const { rows } = await pool.query<{ retry_requested: boolean; projector_positions: Record<string, string | null> }>(
      `SELECT retry_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
      [runner.name],
    );
    const stopped = await readStoppedProjectors(pool, runner.name);
    const stoppedAgain = (name: string) => stopped.some((row) => row.projector === name && new Date(row.stoppedAt) >= askedAt);
    // Done when every old stop is gone or written again, and whatever is still behind is stopped again.
    const settled =
      rows[0] !== undefined &&
      !rows[0].retry_requested &&
      stopped.every((row) => stoppedAgain(row.projector)) &&
      Object.keys(rows[0].projector_positions).every(stoppedAgain);
    if (settled) return { ranHere, retried, stopped };
    await pause(pollMs);
  }
}
