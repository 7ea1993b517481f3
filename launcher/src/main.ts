import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EnvError, parseEnv } from '@fsm/contracts';
import { RestoreNeededError, createRoleLogger, openRoleStore } from '@fsm/eventstore';
import { createRedisProbe, startApi, type RunningApi } from '@fsm/command-api';
import { ensurePostgres, ensureRedis } from './local-services.js';
import { superviseRole } from './role-supervisor.js';

/*
 * Heap limits of the heavy roles (issue 28, item 3). The 1M blue/green
 * rebuild peaked at 447–462 MB of RSS in its own process (docs/benchmarks.md);
 * a limit on V8's old space makes it collect harder before it grows, so its
 * peak stays under the 500 MB budget. The workers' main thread only queues and
 * writes files: each PDF render runs in a thread with its own limit
 * (RENDER_HEAP_MB, workers/src/reports/report-renderer.ts).
 */
const PROJECTIONS_HEAP_MB = 448;
const WORKERS_HEAP_MB = 384;

/** A role's main, compiled, or its TypeScript source under `npm run dev` (this file then runs from source too). */
function roleEntry(role: 'projections' | 'workers'): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return fileURLToPath(new URL(`../../${role}/${fromSources ? 'src/main.ts' : 'dist/main.js'}`, import.meta.url));
}

/**
 * `npm start`: the API and the built web UI in this process; projections
 * (live read models and rebuilds) and workers (reactor, PDFs, e-mails) in
 * child processes with their own heap limits and a lower priority, restarted
 * if they crash; local Postgres/Redis started when none answers. Each role also
 * runs alone (`npm start -w <role>`) for deployments that scale them apart.
 */
async function main(): Promise<void> {
  const parsed = parseEnv(process.env);
  const logger = createRoleLogger({ level: parsed.LOG_LEVEL, name: 'fsm' });
  const postgres = await ensurePostgres(parsed.DATABASE_URL, parsed.DATA_DIR, logger);
  const redis = await ensureRedis(parsed.REDIS_URL, parsed.DATA_DIR, logger);
  const env = { ...parsed, DATABASE_URL: postgres.url, REDIS_URL: redis.url };

  // First, alone on the database: a restored log is re-based here, before the children connect.
  const { pool, store, close: closeStore } = await openRoleStore(env, logger, 20);
  const childEnv = { ...process.env, DATABASE_URL: postgres.url, REDIS_URL: redis.url };
  const roles = [
    superviseRole({ name: 'projections', entry: roleEntry('projections'), env: childEnv, heapMb: PROJECTIONS_HEAP_MB, logger }),
    superviseRole({ name: 'workers', entry: roleEntry('workers'), env: childEnv, heapMb: WORKERS_HEAP_MB, logger }),
  ];
  const stopRoles = () => Promise.all(roles.map((role) => role.stop()));
  const redisProbe = createRedisProbe(env.REDIS_URL);
  let api: RunningApi;
  try {
    // The demo seed waits for its read models: the projections must run first.
    await Promise.all(roles.map((role) => role.ready));
    const webRoot = env.WEB_ROOT ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
    if (!existsSync(webRoot)) logger.warn({ webRoot }, 'interface web non construite : lancez `npm run build`');
    api = await startApi({ env, pool, store, logger, redisPing: () => redisProbe.ping(), webRoot });
  } catch (error) {
    await stopRoles();
    throw error;
  }

  process.stdout.write(`\n  Application prête : ${env.PUBLIC_URL}\n  Santé : ${env.PUBLIC_URL}/api/health\n\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'arrêt');
    await api.close().catch(() => undefined);
    await stopRoles();
    await redisProbe.close().catch(() => undefined);
    await closeStore().catch(() => undefined);
    await redis.stop();
    await postgres.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  // Both say what to do; a stack would only hide it.
  if (error instanceof EnvError || error instanceof RestoreNeededError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`Démarrage impossible : ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
