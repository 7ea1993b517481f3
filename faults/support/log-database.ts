import pg from 'pg';
import { createPostgresEventStore, type PostgresEventStore } from '@fsm/eventstore';
import { startPrivateDatabase, type PrivateDatabase } from './private-postgres.js';
import { appendLog, buildRealisticLog, type LogFigures } from './realistic-log.js';

/** A private Postgres database with a migrated event store, and the pool the test queries it with. */
export interface LogDatabase {
  db: PrivateDatabase;
  pool: pg.Pool;
  store: PostgresEventStore;
  /** Closes the store and the pool, then stops the server and removes its files. */
  close(): Promise<void>;
}

export interface LogDatabaseOptions {
  poolSize: number;
  /** synchronous_commit=off: a log that is test data is written without waiting for each flush. */
  fastCommits?: boolean;
  /** false: no NOTIFY after appends (the processes under test poll anyway). */
  notify?: boolean;
  /** How often the test's own subscribers (a projection runner) poll the log. */
  pollIntervalMs?: number;
}

export async function startLogDatabase(options: LogDatabaseOptions): Promise<LogDatabase> {
  const db = await startPrivateDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: options.poolSize, ...(options.fastCommits ? { options: '-c synchronous_commit=off' } : {}) });
  // A test that stops or restarts the server must not crash on the pool's idle clients.
  pool.on('error', () => undefined);
  const store = createPostgresEventStore({ pool, notify: options.notify, pollIntervalMs: options.pollIntervalMs });
  await store.migrate();
  return {
    db,
    pool,
    store,
    async close() {
      await store.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await db.destroy();
    },
  };
}

/** Writes a realistic log of at least `events` events, `concurrency` streams at a time. */
export async function writeRealisticLog(store: PostgresEventStore, events: number, concurrency: number): Promise<LogFigures> {
  const { streams, figures } = buildRealisticLog(events);
  await appendLog(store, streams, concurrency);
  return figures;
}
