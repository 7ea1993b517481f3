import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { parseEnv } from '@fsm/contracts';
import { buildApp, createAppDeps, createTokenService, type AppDeps } from '@fsm/command-api';
import { createPostgresEventStore, type PostgresEventStore } from '@fsm/eventstore';
import { ProjectionRunner, ProjectionWatcher, readModelProjectors } from '@fsm/projections';
import { migrateAuth } from '@fsm/command-api/test-support';

/**
 * The real app on the bench database, without a listener: what the seed uses
 * to create reference data through the same routes and commands as the
 * screens (as `command-api/src/seed/` does for the demo).
 */
export interface InProcessApp {
  app: FastifyInstance;
  deps: AppDeps;
  pool: pg.Pool;
  store: PostgresEventStore;
  runner: ProjectionRunner;
  close(): Promise<void>;
}

const BENCH_TOKEN_SECRET = 'bench-token-secret-0123456789-abcdefghij';

export async function startInProcessApp(databaseUrl: string, dataDir: string): Promise<InProcessApp> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  pool.on('error', () => undefined);
  const store = createPostgresEventStore({ pool, pollIntervalMs: 50, applicationName: 'fsm-bench-seed' });
  await store.migrate();
  await migrateAuth(pool);
  const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 200 });
  await runner.migrate();
  await runner.start();
  const watcher = new ProjectionWatcher({ pool, connectionString: databaseUrl, compare: (a, b) => store.comparePositions(a, b), pollIntervalMs: 100 });
  runner.on('advanced', (advance) => watcher.observe(advance));
  await watcher.start();
  // A long wait for read-your-writes: on a shared server other databases' transactions can hold projections back.
  const env = parseEnv({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'silent', TOKEN_SECRET: BENCH_TOKEN_SECRET, READ_YOUR_WRITES_TIMEOUT_MS: '60000', REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/5' });
  const deps = createAppDeps({
    env,
    pool,
    store,
    watcher,
    tokens: createTokenService({ secret: BENCH_TOKEN_SECRET, ttlHours: 24 }),
    redisPing: async () => true,
    clock: () => new Date(),
    keyPrefix: 'fsmbench-seed',
    // The seed never asks for a template preview: the previewer AppDeps requires is built but stays idle.
    previewTimeoutMs: 10_000,
  });
  const app = await buildApp(deps);
  return {
    app,
    deps,
    pool,
    store,
    runner,
    async close() {
      await app.close();
      await deps.previews.close();
      deps.rateLimits.redis.disconnect();
      await watcher.close();
      await runner.stop();
      await store.close();
      await pool.end();
    },
  };
}
