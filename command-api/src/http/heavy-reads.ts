import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import { BOUNDED_ANSWER_MESSAGES, TooManyRequestsError, routeKey } from '@fsm/contracts';

/*
 * Heavy reads (issue 28): the answers that read and send thousands of rows.
 * Each is bounded by the row ceiling (UNPAGED_ROWS_MAX, in its route), and
 * here they run a few at a time: per user and per API instance, counted in
 * this process. Past either limit the answer is at once 429 with
 * Retry-After: never a queue that grows while its callers wait.
 *
 * The per-user count is per instance too: with N instances behind the
 * balancer a user may run N × HEAVY_READS_PER_USER. Counting across instances
 * would need Redis and a lease per read (a crashed instance must not keep its
 * slots); the per-instance limit is what protects each process's memory and
 * pool, so it is kept local and exact.
 */

/** What decides whether a call is heavy: whether it asks for one page. */
const pagingOfQuery = z.object({ limit: z.unknown() }).partial();
type PagingOfQuery = z.infer<typeof pagingOfQuery>;

/** Whether a call of the route is heavy, from its query (already validated by the route's own schema). */
type HeavyWhen = (query: PagingOfQuery) => boolean;

const unpaged: HeavyWhen = (query) => query.limit === undefined;
const always: HeavyWhen = () => true;

/**
 * The heavy routes, in one place (docs/tickets-api.md, "Bounded answers").
 * Paged calls (`limit`) read one page: not heavy. Lists of reference data
 * (clients, sites, users, QR codes of one installation…) grow with the
 * company, not with time, and are not here.
 */
const HEAVY_READS: Readonly<Record<string, HeavyWhen>> = {
  'GET /api/tickets': unpaged,
  'GET /api/tickets/clos': unpaged,
  'GET /api/stats/tickets': unpaged,
  'GET /api/stats/tickets.csv': always,
  // An agency's whole QR pool, built in memory as one CSV (bounded by the codes generated, not by time).
  'POST /api/qrcodes/export': always,
};

/** Seconds a refused caller is told to wait: about what a year of one agency takes to stream. */
export const HEAVY_READS_RETRY_AFTER_SECONDS = 5;

export interface HeavyReadLimits {
  perUser: number;
  perInstance: number;
}

/** Counts of the heavy reads running in this process. */
export class HeavyReadSlots {
  private running = 0;
  private readonly byUser = new Map<string, number>();

  constructor(private readonly limits: HeavyReadLimits) {}

  /** A release function when a slot is free for `userId`, null when either limit is reached. */
  tryAcquire(userId: string): (() => void) | null {
    const mine = this.byUser.get(userId) ?? 0;
    if (this.running >= this.limits.perInstance || mine >= this.limits.perUser) return null;
    this.running += 1;
    this.byUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.byUser.get(userId) ?? 1) - 1;
      if (left === 0) this.byUser.delete(userId);
      else this.byUser.set(userId, left);
    };
  }

  /** Heavy reads running now (the figures of a test, a health line). */
  get inFlight(): number {
    return this.running;
  }
}

/**
 * Puts the slot check on every route of HEAVY_READS as it is registered
 * (after the door: the caller is known, the query validated). The slot is
 * given back when the answer's socket closes: after the last byte of a
 * streamed answer, or when the client leaves mid-way.
 */
export function registerHeavyReads(app: FastifyInstance, slots: HeavyReadSlots): void {
  const registered = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      const key = routeKey(method, route.url);
      const heavy = HEAVY_READS[key];
      if (!heavy) continue;
      registered.add(key);
      const check = async (request: FastifyRequest, reply: FastifyReply) => {
        if (!heavy(pagingOfQuery.parse(request.query ?? {}))) return;
        const userId = request.principal?.id ?? `ip:${request.ip}`;
        const release = slots.tryAcquire(userId);
        if (!release) {
          void reply.header('retry-after', String(HEAVY_READS_RETRY_AFTER_SECONDS));
          throw new TooManyRequestsError(BOUNDED_ANSWER_MESSAGES.heavyReadsBusy);
        }
        // 'close' also when the client leaves mid-answer; 'finish' where no socket closes (app.inject).
        reply.raw.once('close', release);
        reply.raw.once('finish', release);
      };
      route.preHandler = [...[route.preHandler ?? []].flat(), check];
    }
  });
  // A renamed route would silently lose its limit: refuse to start instead.
  app.addHook('onReady', async () => {
    const missing = Object.keys(HEAVY_READS).filter((key) => !registered.has(key));
    if (missing.length > 0) throw new Error(`HEAVY_READS names routes that are not registered: ${missing.join(', ')}`);
  });
}
