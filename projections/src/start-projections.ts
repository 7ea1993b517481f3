import type pg from 'pg';
import type { EventStore } from '@fsm/eventstore';
import { readModelProjectors } from './read-models/index.js';
import { ProjectionRunner } from './runner/runner.js';
import type { RunnerLogger } from './runner/runner-options.js';

export interface StartProjectionsOptions {
  pool: pg.Pool;
  store: EventStore;
  logger?: RunnerLogger;
  /** LEADER_LEASE_MS (default 10 s). */
  leaseMs?: number;
}

/** Migrates the read models and starts (or stands by as) the runner. */
export async function startProjections(options: StartProjectionsOptions): Promise<ProjectionRunner> {
  const runner = new ProjectionRunner({
    pool: options.pool,
    store: options.store,
    projectors: readModelProjectors,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
  });
  await runner.migrate();
  await runner.start();
  return runner;
}
