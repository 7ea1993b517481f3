import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { startWorkers } from './start-workers.js';

/** The workers role alone (`npm start -w workers`). */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const logger = pino({ level: env.LOG_LEVEL, name: 'workers' });
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 6));
  // An idle connection cut by Postgres (restart, failover, pg_terminate_backend) is an
  // 'error' event on the pool: without a listener Node kills the process. The pool
  // drops that client and opens a new one on the next query (docs/reliability.md §5).
  pool.on('error', (error) => logger.warn({ err: error }, 'Postgres: connexion inactive perdue'));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const workers = await startWorkers({ env, pool, store, logger });
  const shutdown = async () => {
    await workers.close();
    await store.close();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
