import pg from 'pg';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig, type EventStore } from '@fsm/eventstore';
import { readModelProjectors } from './read-models/index.js';
import { ProjectionRunner } from './runner/runner.js';

export interface MaintenanceTools {
  pool: pg.Pool;
  store: EventStore;
  /** A runner of the product's read models, migrated; it asks the active one to do the work when there is one. */
  runner: ProjectionRunner;
}

/**
 * The frame of the maintenance commands (`npm run rebuild`, `npm run
 * retry-projections`): configuration from the environment, a pool, the event
 * store and a runner; `work` answers the exit code; a failure prints
 * `failure: <reason>` and exits 1.
 */
export function runMaintenanceCommand(failure: string, work: (tools: MaintenanceTools) => Promise<number>): void {
  const main = async (): Promise<number> => {
    const env = parseEnv(process.env);
    const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 4));
    const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
    await store.migrate();
    const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 500 });
    try {
      await runner.migrate();
      return await work({ pool, store, runner });
    } finally {
      await runner.stop();
      await store.close();
      await pool.end();
    }
  };
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${failure} : ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
