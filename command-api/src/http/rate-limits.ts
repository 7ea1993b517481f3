import type { FastifyRequest } from 'fastify';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { normalizeIP } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { UnavailableError, type DomainError } from '@fsm/contracts';
import { DATABASE_UNAVAILABLE } from './error-handler.js';

/**
 * Per-address limits (login, the public QR form and its captcha), counted in
 * Redis so that every API instance enforces one shared limit: kept in each
 * process, N instances would allow N times the limit.
 *
 * The address is `request.ip`, which honours X-Forwarded-For only for the
 * proxies TRUST_PROXY names: a forged header from anywhere else changes nothing.
 */
export interface RateLimitBackend {
  redis: Redis;
  /** Key prefix: one per deployment (next to its BullMQ keys), one per test file. */
  prefix: string;
}

/**
 * A connection that fails fast when Redis is away (a limit must answer within
 * the request, not after the outage). Commands sent while it reconnects wait
 * at most `commandTimeout`.
 */
export function createRateLimitRedis(url: string): Redis {
  const redis = new Redis(url, {
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', () => undefined); // an outage is reported by /api/health; each limit decides what it means
  return redis;
}

/**
 * IPv6 clients are counted per /64: one subscriber gets a whole /64 and could
 * otherwise take a new address for every try. IPv4-mapped addresses count as IPv4.
 */
const IPV6_SUBNET = 64;

/** The client address every per-address limit counts (login throttle included). */
export function clientAddress(request: FastifyRequest): string {
  return normalizeIP(request.ip, IPV6_SUBNET);
}

export interface AddressLimit {
  /** Names the counter in Redis. */
  name: string;
  max: number;
  timeWindowMs: number;
  /**
   * When Redis cannot count: 'allow' lets the request through (other defences
   * hold), 'refuse' answers 503 (the limit is the defence).
   */
  whenUncounted: 'allow' | 'refuse';
  tooMany: (ttlMs: number) => DomainError;
}

/** INCR + expiry in one atomic step; a key that lost its expiry gets it back. */
const COUNT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

function redisCounterStore(backend: RateLimitBackend, limit: AddressLimit): FastifyRateLimitStoreCtor {
  const failure = (): Error => new UnavailableError(DATABASE_UNAVAILABLE);
  const store = (keyPrefix: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      backend.redis.eval(COUNT_SCRIPT, 1, keyPrefix + key, String(timeWindow)).then(
        (result) => {
          const [current, ttl] = result as [number, number];
          callback(null, { current, ttl });
        },
        () => callback(failure()),
      );
    },
    child(routeOptions) {
      // The plugin passes the route's merged settings with the route under `routeInfo`.
      const route = (routeOptions as unknown as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      return store(`${keyPrefix}${route?.method ?? ''}${route?.url ?? ''}:`);
    },
  });
  return class {
    constructor() {
      return store(`${backend.prefix}${limit.name}:`);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}

/** Options for `@fastify/rate-limit`, registered in the scope the limit covers. */
export function addressRateLimit(backend: RateLimitBackend, limit: AddressLimit): FastifyRateLimitOptions {
  return {
    global: true,
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    store: redisCounterStore(backend, limit),
    skipOnError: limit.whenUncounted === 'allow',
    keyGenerator: clientAddress,
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) => limit.tooMany(context.ttl),
  };
}
