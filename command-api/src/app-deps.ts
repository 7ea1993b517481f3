import type pg from 'pg';
import type { Env } from '@fsm/contracts';
import type { BlobStore, EventStore } from '@fsm/eventstore';
import type { ProjectionWatcher } from '@fsm/projections';
import type { TokenService } from './auth/tokens.js';
import type { RateLimitBackend } from './http/rate-limits.js';
import type { LiveHub } from './live/live-hub.js';
import type { TemplatePreviewer } from './previews/template-previewer.js';

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
