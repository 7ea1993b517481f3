import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { EnvError, parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { startApi, createRedisProbe } from '@fsm/command-api';
import { startProjections } from '@fsm/projections';
import { startWorkers } from '@fsm/workers';
import { ensurePostgres, ensureRedis } from './local-services.js';

/**
 * `npm start`: API, projections, workers and the built web UI in one process,
 * with local Postgres/Redis started when none answers. Each role also runs
 * alone (`npm start -w <role>`) for deployments that scale them apart.
 */
async function main(): Promise<void> {
  const parsed = parseEnv(process.env);
  const logger = pino({ level: parsed.LOG_LEVEL, name: 'fsm' });
  const postgres = await ensurePostgres(parsed.DATABASE_URL, parsed.DATA_DIR, logger);
  const redis = await ensureRedis(parsed.REDIS_URL, parsed.DATA_DIR, logger);
  const env = { ...parsed, DATABASE_URL: postgres.url, REDIS_URL: redis.url };

  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 20));
  // An idle connection cut by Postgres (restart, failover) is an 'error' event on the pool:
  // without a listener Node kills the process. The pool reconnects on the next query.
  pool.on('error', (error) => logger.warn({ err: error }, 'Postgres : connexion inactive perdue'));
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const projections = await startProjections({ pool, store, logger: logger.child({ role: 'projections' }), leaseMs: env.LEADER_LEASE_MS });
  const workers = await startWorkers({ env, pool, store, logger });
  const redisProbe = createRedisProbe(env.REDIS_URL);
  const webRoot = env.WEB_ROOT ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
  if (!existsSync(webRoot)) logger.warn({ webRoot }, 'interface web non construite : lancez `npm run build`');
  const api = await startApi({ env, pool, store, logger, redisPing: () => redisProbe.ping(), webRoot });
  // Same process: hand batches to the watcher directly instead of waiting for NOTIFY.
  projections.on('advanced', (advance) => api.watcher.observe(advance));

  process.stdout.write(`\n  Application prête : ${env.PUBLIC_URL}\n  Santé : ${env.PUBLIC_URL}/api/health\n\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'arrêt');
    await api.close().catch(() => undefined);
    await workers.close().catch(() => undefined);
    await projections.stop().catch(() => undefined);
    await redisProbe.close();
    await store.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await redis.stop();
    await postgres.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Démarrage impossible : ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
