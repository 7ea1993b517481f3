import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { startProjections } from './start-projections.js';

/** The projections role alone (`npm start -w projections`). */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const logger = pino({ level: env.LOG_LEVEL, name: 'projections' });
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 4));
  // An idle connection cut by Postgres (restart, failover, pg_terminate_backend) is an
  // 'error' event on the pool: without a listener Node kills the process. The pool
  // drops that client and opens a new one on the next query (docs/reliability.md §5).
  pool.on('error', (error) => logger.warn({ err: error }, 'Postgres: connexion inactive perdue'));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const runner = await startProjections({ pool, store, logger, leaseMs: env.LEADER_LEASE_MS });
  // The runner's retry timers are unref'd (tests and the launcher must be able to exit).
  // While Postgres is down this role holds no connection at all, so nothing else would
  // keep the process alive: it would exit silently instead of retrying. Hold it until SIGTERM.
  const keepAlive = setInterval(() => undefined, 60_000);
  const shutdown = async () => {
    clearInterval(keepAlive);
    await runner.stop();
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
