import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HEALTH_DETAILS_ACCESS, canCallRoute } from '@fsm/contracts';
import { restoredLogNeedsRebase, restoreNeededMessage } from '@fsm/eventstore';
import { readStoppedProjectors } from '@fsm/projections';
import type { AppDeps } from '../app-deps.js';
import { authenticate } from '../auth/principal.js';
import { bearerToken } from '../auth/tokens.js';

const LAG_SCAN_LIMIT = 10_000;

/**
 * When health says `degraded`. Read-your-writes waits a few seconds for the
 * read models (READ_YOUR_WRITES_TIMEOUT_MS); past these figures users see
 * stale screens for much longer than that, which an operator must hear about.
 */
export const HEALTH_THRESHOLDS = {
  /** Events the read models can see but have not applied. */
  lagEvents: 1_000,
  /** Age of the oldest committed event the read models have not applied. */
  lagSeconds: 30,
  /** Age of the oldest open transaction holding an id: every subscriber waits behind it. */
  horizonSeconds: 30,
} as const;
export type HealthThresholds = { [Key in keyof typeof HEALTH_THRESHOLDS]: number };

const HealthStatus = z.enum(['ok', 'degraded', 'down']);

/** What anyone gets: load balancers and probes need the status (and the 200/503) only. */
const HealthSummary = z.object({ status: HealthStatus });

/** A read model stopped on an event it cannot apply (docs/operations.md, "Repair a stopped read model"). */
const StoppedReadModel = z.object({
  projector: z.string(),
  position: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  streamId: z.string(),
  error: z.string(),
  errorCode: z.string().nullable(),
  /** Set when it stopped because a read model it reads did. */
  stoppedWith: z.string().nullable(),
  stoppedAt: z.string(),
});

/** The details, for HEALTH_DETAILS_ACCESS (admin_plus). */
export const HealthResponse = z.object({
  status: HealthStatus,
  postgres: z.object({ reachable: z.boolean() }),
  redis: z.object({ reachable: z.boolean() }),
  eventStore: z.object({
    kind: z.string(),
    reachable: z.boolean(),
    /** The newest committed event, even one readers cannot see yet. */
    head: z.string().nullable(),
    headRecordedAt: z.string().nullable(),
    /** The newest event readers can see; behind `head` while a transaction holds them back. */
    visibleHead: z.string().nullable(),
    /**
     * A restored dump not re-based (`npm run restore-events`): its events carry another server's
     * transaction ids, readers see none and appends to restored streams fail. `down` meanwhile.
     */
    restoreNeeded: z.boolean(),
    /** What to do about it (French, then English); null when nothing is needed. */
    restoreMessage: z.string().nullable(),
    /** The oldest open transaction holding an id (cluster-wide on Postgres), null when none or unknown. */
    horizon: z
      .object({
        transaction: z.string(),
        startedAt: z.string().nullable(),
        ageSeconds: z.number().nullable(),
        application: z.string().nullable(),
        database: z.string().nullable(),
        state: z.string().nullable(),
      })
      .nullable(),
  }),
  projections: z.object({
    checkpoint: z.string().nullable(),
    /** Events the read models can see and still have to apply (capped; `lagCapped` when more). */
    lag: z.number().int().nullable(),
    lagCapped: z.boolean(),
    /** Age of the oldest committed event not yet applied (0 when none), whatever holds it back. */
    lagSeconds: z.number().nullable(),
    /** Each one waits at its failing event while the others go on. */
    stopped: z.array(StoppedReadModel),
  }),
  live: z.object({ clients: z.number().int() }),
});
type HealthDetails = z.infer<typeof HealthResponse>;

// The details first: zod keeps the first schema that matches, and the summary would strip them.
const HealthAnswer = z.union([HealthResponse, HealthSummary]);

/**
 * `ok` when everything answers; `degraded` when Redis (jobs) is down, the read
 * models lag (HEALTH_THRESHOLDS: in events or in seconds), a transaction has
 * held the readers' horizon back too long, or a read model is stopped on an
 * event, since commands still work; `down` when the event store or Postgres
 * cannot be reached, or holds a restored log that was not re-based (503).
 *
 * Public, since probes carry no token: anyone gets `{ status }`; a caller
 * passing HEALTH_DETAILS_ACCESS gets the details on the same route. Probes
 * arriving together share one check (it scans up to 10,000 events), so a
 * flood of them costs one check at a time.
 */
export async function healthRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  let inFlight: Promise<HealthDetails> | null = null;
  const check = (): Promise<HealthDetails> => {
    inFlight ??= checkHealth(deps).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', { schema: { response: { 200: HealthAnswer, 503: HealthAnswer } } }, async (request, reply) => {
    const [health, details] = await Promise.all([check(), mayReadDetails(request, deps)]);
    return reply.status(health.status === 'down' ? 503 : 200).send(details ? health : { status: health.status });
  });
}

/** A token that does not pass (none, expired, not admin_plus, or Postgres down to check it) gets the status alone, never a 401. */
async function mayReadDetails(request: FastifyRequest, deps: AppDeps): Promise<boolean> {
  if (!bearerToken(request.headers.authorization)) return false;
  try {
    return canCallRoute(HEALTH_DETAILS_ACCESS, await authenticate(request, deps));
  } catch {
    return false;
  }
}

export type HealthDeps = Pick<AppDeps, 'pool' | 'redisPing' | 'store'> & {
  watcher: Pick<AppDeps['watcher'], 'position'>;
  live: Pick<AppDeps['live'], 'size'>;
};

export async function checkHealth(deps: HealthDeps, thresholds: HealthThresholds = HEALTH_THRESHOLDS): Promise<HealthDetails> {
  const checkpoint = deps.watcher.position;
  const [postgres, redis, storeHealth, stopped, restoreNeeded] = await Promise.all([
    deps.pool.query('SELECT 1').then(
      () => true,
      () => false,
    ),
    deps.redisPing().catch(() => false),
    deps.store.health(checkpoint).catch(() => null),
    // Postgres down: `down` already says more than this could.
    readStoppedProjectors(deps.pool).catch(() => []),
    // Cheap (one index end): the log's newest transaction id against this server's counter.
    deps.store.kind === 'postgres' ? restoredLogNeedsRebase(deps.pool).catch(() => false) : Promise.resolve(false),
  ]);
  // A checkpoint the store cannot read (left over from another store) is not the store being down.
  const storeReachable = storeHealth !== null || (await deps.store.headPosition().then(() => true, () => false));
  let lag: number | null = null;
  let lagCapped = false;
  if (storeReachable) {
    try {
      const slice = await deps.store.readAll({ from: checkpoint, maxCount: LAG_SCAN_LIMIT });
      lag = slice.events.length;
      lagCapped = !slice.caughtUp && slice.events.length >= LAG_SCAN_LIMIT;
    } catch {
      lag = null;
    }
  }
  const lagSeconds = storeHealth ? (storeHealth.oldestPending?.ageSeconds ?? 0) : null;
  const horizon = storeHealth?.horizon ?? null;
  const down = !postgres || !storeReachable || restoreNeeded;
  const lagging = (lag ?? 0) > thresholds.lagEvents || (lagSeconds ?? 0) > thresholds.lagSeconds;
  // An age hidden from this role (no pg_read_all_stats) cannot decide; the lag in seconds still does.
  const heldBack = horizon?.ageSeconds != null && horizon.ageSeconds > thresholds.horizonSeconds;
  const status = down ? 'down' : !redis || lagging || heldBack || stopped.length > 0 ? 'degraded' : 'ok';
  return {
    status,
    postgres: { reachable: postgres },
    redis: { reachable: redis },
    eventStore: {
      kind: deps.store.kind,
      reachable: storeReachable,
      head: storeHealth?.head?.position ?? null,
      headRecordedAt: storeHealth?.head?.recordedAt ?? null,
      visibleHead: storeHealth?.visibleHead ?? null,
      restoreNeeded,
      restoreMessage: restoreNeeded ? restoreNeededMessage() : null,
      horizon,
    },
    projections: {
      checkpoint,
      lag,
      lagCapped,
      lagSeconds,
      stopped: stopped.map(({ runner: _runner, ...readModel }) => readModel),
    },
    live: { clients: deps.live.size },
  };
}
