import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { createRedisProbe } from './redis-probe.js';
import { startApi } from './start-api.js';

/** The API role alone (`npm start -w command-api`); projections and workers run elsewhere. */
async function main(): Promise<void> {
  const env = parseEnv(process.env);
  const logger = pino({ level: env.LOG_LEVEL, name: 'command-api' });
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 20));
  // An idle connection cut by Postgres (restart, failover, pg_terminate_backend) is an
  // 'error' event on the pool: without a listener Node kills the process. The pool
  // drops that client and opens a new one on the next query (docs/reliability.md §5).
  pool.on('error', (error) => logger.warn({ err: error }, 'Postgres: connexion inactive perdue'));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const redis = createRedisProbe(env.REDIS_URL);
  const api = await startApi({ env, pool, store, logger, redisPing: () => redis.ping(), webRoot: env.WEB_ROOT });
  logger.info({ url: api.url }, 'API prête');
  const shutdown = async () => {
    await api.close();
    await redis.close();
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
