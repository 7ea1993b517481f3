import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HEALTH_DETAILS_ACCESS, canCallRoute } from '@fsm/contracts';
import { readStoppedProjectors } from '@fsm/projections';
import type { AppDeps } from '../app-deps.js';
import { authenticate } from '../auth/principal.js';
import { bearerToken } from '../auth/tokens.js';

const LAG_SCAN_LIMIT = 10_000;

const HealthStatus = z.enum(['ok', 'degraded', 'down']);

/** What anyone gets: load balancers and probes need the status (and the 200/503) only. */
export const HealthSummary = z.object({ status: HealthStatus });

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
  eventStore: z.object({ kind: z.string(), reachable: z.boolean(), head: z.string().nullable() }),
  projections: z.object({
    checkpoint: z.string().nullable(),
    /** Events the read models still have to apply (capped; `lagCapped` when more). */
    lag: z.number().int().nullable(),
    lagCapped: z.boolean(),
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
 * models lag, or a read model is stopped on an event, since commands still
 * work; `down` when the event store or Postgres cannot be reached (503).
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

async function checkHealth(deps: AppDeps): Promise<HealthDetails> {
  const [postgres, redis, head, stopped] = await Promise.all([
    deps.pool.query('SELECT 1').then(
      () => true,
      () => false,
    ),
    deps.redisPing().catch(() => false),
    deps.store.headPosition().then(
      (position) => ({ reachable: true, position }),
      () => ({ reachable: false, position: null }),
    ),
    // Postgres down: `down` already says more than this could.
    readStoppedProjectors(deps.pool).catch(() => []),
  ]);
  const checkpoint = deps.watcher.position;
  let lag: number | null = null;
  let lagCapped = false;
  if (head.reachable) {
    try {
      const slice = await deps.store.readAll({ from: checkpoint, maxCount: LAG_SCAN_LIMIT });
      lag = slice.events.length;
      lagCapped = !slice.caughtUp && slice.events.length >= LAG_SCAN_LIMIT;
    } catch {
      lag = null;
    }
  }
  const down = !postgres || !head.reachable;
  const status = down ? 'down' : !redis || (lag ?? 0) > 1_000 || stopped.length > 0 ? 'degraded' : 'ok';
  return {
    status,
    postgres: { reachable: postgres },
    redis: { reachable: redis },
    eventStore: { kind: deps.store.kind, reachable: head.reachable, head: head.position },
    projections: {
      checkpoint,
      lag,
      lagCapped,
      stopped: stopped.map(({ runner: _runner, ...readModel }) => readModel),
    },
    live: { clients: deps.live.size },
  };
}
