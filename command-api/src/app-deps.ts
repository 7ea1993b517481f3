import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type pg from 'pg';
import type { Env } from '@fsm/contracts';
import { createBlobStore, type BlobStore, type EventStore } from '@fsm/eventstore';
import type { ProjectionWatcher } from '@fsm/projections';
import type { TokenService } from './auth/tokens.js';
import { createRateLimitRedis, type RateLimitBackend } from './http/rate-limits.js';
import { LiveHub, connectLiveHub } from './live/live-hub.js';
import { POSITION_SEAL_KEY_PURPOSE, createPositionSeal } from './live/live-positions.js';
import { createBullPreviewer, type TemplatePreviewer } from './previews/template-previewer.js';

/**
 * Everything the app needs from the outside world. Only `main.ts` (or the
 * launcher) builds the real ones; tests pass their own.
 */
export interface AppDeps {
  env: Env;
  pool: pg.Pool;
  store: EventStore;
  watcher: ProjectionWatcher;
  live: LiveHub;
  tokens: TokenService;
  /** Photos, signatures, reports (content-addressed). */
  blobs: BlobStore;
  /** Where the per-address limits count (Redis, shared by every instance). */
  rateLimits: RateLimitBackend;
  /** True when Redis answers; never throws for "down". */
  redisPing: () => Promise<boolean>;
  /** The template builder's 'Preview A4', rendered by the workers. */
  previews: TemplatePreviewer;
  clock: () => Date;
  newId: () => string;
  /** Folder of the built web UI to serve, if any. */
  webRoot?: string | undefined;
}

export interface AppDepsOptions {
  env: Env;
  pool: pg.Pool;
  store: EventStore;
  /** Started or not: the live hub only listens to it. */
  watcher: ProjectionWatcher;
  tokens: TokenService;
  redisPing: () => Promise<boolean>;
  clock: () => Date;
  /** Redis key prefix of the rate-limit counters and of the template previews' BullMQ queue. */
  keyPrefix: string;
  previewTimeoutMs?: number;
  webRoot?: string | undefined;
}

/**
 * The real dependencies around a watcher: the live hub it feeds, the blob store
 * under DATA_DIR, rate limits and template previews in Redis. `main.ts`, the
 * test harness and the benchmark's in-process app all build the app on these.
 */
export function createAppDeps(options: AppDepsOptions): AppDeps {
  const { env, store, watcher, keyPrefix } = options;
  const live = new LiveHub((a, b) => store.comparePositions(a, b), createPositionSeal(options.tokens.derivedKey(POSITION_SEAL_KEY_PURPOSE)));
  connectLiveHub(watcher, live);
  return {
    env,
    pool: options.pool,
    store,
    watcher,
    live,
    tokens: options.tokens,
    blobs: createBlobStore(join(env.DATA_DIR, 'files')),
    rateLimits: { redis: createRateLimitRedis(env.REDIS_URL), prefix: `${keyPrefix}:rate-limit:` },
    redisPing: options.redisPing,
    previews: createBullPreviewer({ redisUrl: env.REDIS_URL, prefix: keyPrefix, timeoutMs: options.previewTimeoutMs }),
    clock: options.clock,
    newId: randomUUID,
    webRoot: options.webRoot,
  };
}
