import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Env } from '@fsm/contracts';
import { deploymentKeyPrefix, type EventStore } from '@fsm/eventstore';
import { ProjectionWatcher } from '@fsm/projections';
import { buildApp } from './app.js';
import { createAppDeps } from './app-deps.js';
import { demoCredentialsText, runDemoSeed } from './seed/demo-seed.js';
import { demoSeedSteps } from './seed/demo-steps.js';
import { migrateAuth } from './auth/credentials.js';
import { migrateIdempotency } from './http/idempotency.js';
import { createTokenService } from './auth/tokens.js';
import type { LiveHub } from './live/live-hub.js';
import { resolveTokenSecret } from './token-secret.js';

export interface StartApiOptions {
  env: Env;
  pool: pg.Pool;
  store: EventStore;
  logger: Logger;
  redisPing: () => Promise<boolean>;
  webRoot?: string | undefined;
  /** Redis key prefix shared with the workers (default: the deployment's, `deploymentKeyPrefix`). */
  queuePrefix?: string;
}

export interface RunningApi {
  app: FastifyInstance;
  watcher: ProjectionWatcher;
  live: LiveHub;
  url: string;
  close(): Promise<void>;
}

/** Builds the app with real dependencies and listens on PORT. */
export async function startApi(options: StartApiOptions): Promise<RunningApi> {
  const { env, pool, store, logger } = options;
  await migrateAuth(pool);
  await migrateIdempotency(pool);
  const watcher = new ProjectionWatcher({ pool, connectionString: env.DATABASE_URL, compare: (a, b) => store.comparePositions(a, b) });
  const deps = createAppDeps({
    env,
    pool,
    store,
    watcher,
    tokens: createTokenService({ secret: await resolveTokenSecret(env), ttlHours: env.TOKEN_TTL_HOURS }),
    redisPing: options.redisPing,
    clock: () => new Date(),
    // Issue 32: this deployment's Redis keys (rate limits, previews queue), named after its log like the workers' queues.
    keyPrefix: options.queuePrefix ?? (await deploymentKeyPrefix(store)),
    webRoot: options.webRoot,
  });
  await watcher.start();
  const { live } = deps;
  const app = await buildApp(deps, { loggerInstance: logger.child({ role: 'api' }) });
  if (env.SEED_DEMO && (await runDemoSeed(app, deps, demoSeedSteps))) {
    logger.info('données de démonstration créées');
    process.stdout.write(`\n${demoCredentialsText()}\n`);
  }
  const address = await app.listen({ port: env.PORT, host: env.HOST });
  return {
    app,
    watcher,
    live,
    url: address,
    async close() {
      live.closeAll();
      await app.close();
      await deps.previews.close();
      deps.rateLimits.redis.disconnect();
      await watcher.close();
    },
  };
}
