import type pg from 'pg';
import type { Logger } from 'pino';
import type { Env } from '@fsm/contracts';
import type { EventStore } from '@fsm/eventstore';
import { startApi, createRedisProbe, type RunningApi } from '@fsm/command-api';
import { startProjections } from '@fsm/projections';
import { startWorkers } from '@fsm/workers';

export interface AllRolesOptions {
  env: Env;
  pool: pg.Pool;
  store: EventStore;
  logger: Logger;
  /** Redis key prefix shared by the API and the workers (default: the deployment's, named after its log). */
  queuePrefix?: string;
  webRoot?: string | undefined;
  leaseMs?: number;
}

export interface AllRoles {
  api: RunningApi;
  /** Stops the API, the workers and the projections, in that order, then closes the store and the pool. Never throws. */
  close(): Promise<void>;
}

/**
 * Projections, workers and API in one process, on one pool and store: the
 * browser tests' and the benchmark's stacks. They test what the roles do
 * together, start from TypeScript sources in seconds, and read one process's
 * CPU and memory; none of them runs a rebuild beside requests it times.
 * `npm start` runs projections and workers apart from the API instead
 * (main.ts, role-supervisor.ts; issue 28, item 3).
 */
export async function startAllRoles(options: AllRolesOptions): Promise<AllRoles> {
  const { env, pool, store, logger, queuePrefix, webRoot } = options;
  const projections = await startProjections({ pool, store, logger: logger.child({ role: 'projections' }), leaseMs: options.leaseMs });
  const workers = await startWorkers({ env, pool, store, logger, queuePrefix });
  const redisProbe = createRedisProbe(env.REDIS_URL);
  const api = await startApi({ env, pool, store, logger, redisPing: () => redisProbe.ping(), webRoot, queuePrefix });
  // Same process: hand batches to the watcher directly instead of waiting for NOTIFY.
  projections.on('advanced', (advance) => api.watcher.observe(advance));
  return {
    api,
    async close() {
      await api.close().catch(() => undefined);
      await workers.close().catch(() => undefined);
      await projections.stop().catch(() => undefined);
      await redisProbe.close().catch(() => undefined);
      await store.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
