import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../app-deps.js';

const LAG_SCAN_LIMIT = 10_000;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  postgres: z.object({ reachable: z.boolean() }),
  redis: z.object({ reachable: z.boolean() }),
  eventStore: z.object({ kind: z.string(), reachable: z.boolean(), head: z.string().nullable() }),
  projections: z.object({
    checkpoint: z.string().nullable(),
    /** Events the read models still have to apply (capped; `lagCapped` when more). */
    lag: z.number().int().nullable(),
    lagCapped: z.boolean(),
  }),
  live: z.object({ clients: z.number().int() }),
});

/**
 * `ok` when everything answers; `degraded` when Redis (jobs) is down or the
 * read models lag, since commands still work; `down` when the event store or
 * Postgres cannot be reached (503).
 */
export async function healthRoute(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/health', { schema: { response: { 200: HealthResponse, 503: HealthResponse } } }, async (_request, reply) => {
    const [postgres, redis, head] = await Promise.all([
      deps.pool.query('SELECT 1').then(() => true, () => false),
      deps.redisPing().catch(() => false),
      deps.store.headPosition().then(
        (position) => ({ reachable: true, position }),
        () => ({ reachable: false, position: null }),
      ),
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
    const status = down ? 'down' : !redis || (lag ?? 0) > 1_000 ? 'degraded' : 'ok';
    return reply.status(down ? 503 : 200).send({
      status,
      postgres: { reachable: postgres },
      redis: { reachable: redis },
      eventStore: { kind: deps.store.kind, reachable: head.reachable, head: head.position },
      projections: { checkpoint, lag, lagCapped },
      live: { clients: deps.live.size },
    });
  });
}
