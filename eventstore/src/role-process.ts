import pg from 'pg';
import { createEventStore, type ConfiguredEventStore } from './create-event-store.js';
import { productPoolConfig } from './postgres/pool-config.js';
import { rebaseRestoredLogAtStart } from './postgres/restored-log.js';

/** A role's Postgres pool and the event store on it, migrated; `close` ends both. */
export interface RoleStore {
  pool: pg.Pool;
  store: ConfiguredEventStore;
  close(): Promise<void>;
}

/** What openRoleStore logs with (a pino logger is one). */
export interface RoleLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** The pool (`poolSize` connections to DATABASE_URL) and event store every role's main.ts opens. */
export async function openRoleStore(env: { DATABASE_URL: string; EVENTSTORE_URL?: string | undefined }, logger: RoleLogger, poolSize: number): Promise<RoleStore> {
  // A restored dump started without `npm run restore-events` (issue 32, item 15): re-based here
  // when nothing else is connected, else the start is refused with the command to run. Before the
  // role's own pool exists, which would count as another session. KurrentDB positions do not
  // depend on the Postgres server.
  if (!env.EVENTSTORE_URL?.trim()) await rebaseRestoredLogAtStart(env.DATABASE_URL, logger);
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, poolSize));
  // An idle connection cut by Postgres (restart, failover, pg_terminate_backend) is an
  // 'error' event on the pool: without a listener Node kills the process. The pool
  // drops that client and opens a new one on the next query (docs/reliability.md §5).
  pool.on('error', (error) => logger.warn({ err: error }, 'Postgres: connexion inactive perdue'));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  return {
    pool,
    store,
    async close() {
      await store.close();
      await pool.end();
    },
  };
}

/**
 * Runs a role's process: `start` starts the role and answers how to stop it;
 * SIGTERM or SIGINT stops it and exits 0, and a start-up failure prints its
 * message and exits 1. Started with an IPC channel (by `npm start`'s launcher,
 * which runs projections and workers apart from the API), it says so once the
 * role runs, and stops when the launcher goes: an orphan would keep its lease.
 */
export function runRole(start: () => Promise<() => Promise<void>>): void {
  start().then(
    (stop) => {
      let stopping = false;
      const shutdown = async () => {
        if (stopping) return;
        stopping = true;
        await stop();
        process.exit(0);
      };
      process.once('SIGTERM', () => void shutdown());
      process.once('SIGINT', () => void shutdown());
      if (process.send) {
        process.send({ type: 'role-ready' });
        process.once('disconnect', () => void shutdown());
      }
    },
    (error: unknown) => {
      // RestoreNeededError's message names the command to run.
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
