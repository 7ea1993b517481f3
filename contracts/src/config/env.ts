import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'attendu : true ou false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const url = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `URL attendue (${protocols.join(', ')})` },
  );

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
/** The named ranges Fastify's trustProxy (proxy-addr) understands. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isIpv6(value: string): boolean {
  // The URL parser knows IPv6 (contracts runs in the browser too: no node:net here).
  if (!value.includes(':') || /[^0-9a-f:.]/i.test(value)) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** One trusted proxy: an address, a CIDR range or a named range. */
function isTrustedProxyEntry(entry: string): boolean {
  if (NAMED_RANGES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const max = IPV4.test(address) ? 32 : isIpv6(address) ? 128 : -1;
  if (max < 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= max);
}

/**
 * Which X-Forwarded-For hops to believe (the client address every per-address
 * limit counts). Off by default: with it on and the port reachable directly,
 * anyone could claim any address. `true` trusts every hop, a number trusts that
 * many proxies in front, a list trusts those addresses/ranges.
 */
const trustProxy = z
  .string()
  .transform((value, context): boolean | number | string[] => {
    const text = value.trim().toLowerCase();
    if (['false', '0', 'no'].includes(text)) return false;
    if (['true', 'yes'].includes(text)) return true;
    if (/^\d+$/.test(text) && Number(text) <= 10) return Number(text);
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.length > 0 && entries.every(isTrustedProxyEntry)) return entries;
    context.addIssue({
      code: 'custom',
      message: 'attendu : false, true, un nombre de proxys (1 à 10) ou une liste d’adresses IP / plages CIDR séparées par des virgules',
    });
    return z.NEVER;
  });

/**
 * Every setting the roles read, validated once at start-up. Defaults serve one
 * machine with no configuration.
 */
/** The leader lease's bounds (ms): the env's and the consumer's own check (eventstore/src/consumer). */
export const LEADER_LEASE_MS = { min: 1_000, max: 120_000, default: 10_000 } as const;

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  /** KurrentDB/EventStoreDB connection string; unset = the Postgres event store. */
  EVENTSTORE_URL: z.string().min(1).optional(),
  /** Files (photos, signatures, reports) and local state. */
  DATA_DIR: z.string().min(1).default('.data'),
  /** HMAC key for session tokens; generated and kept under DATA_DIR when unset outside production. */
  TOKEN_SECRET: z.string().min(32, { error: 'au moins 32 caractères' }).optional(),
  TOKEN_TTL_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
  SEED_DEMO: booleanFlag.default(true),
  /** SMTP server for e-mail; unset = messages written to DATA_DIR/outbox. */
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('Maintenance incendie <no-reply@localhost>'),
  /** Base URL printed in QR codes and e-mails; defaults to http://localhost:<PORT>. */
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  /** Folder of the built web UI (the launcher finds web/dist by itself). */
  WEB_ROOT: z.string().min(1).optional(),
  /** Reverse proxies whose X-Forwarded-For is believed; off by default. */
  TRUST_PROXY: trustProxy.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Max wait for the read models to include a command's events before answering. */
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Lease of the projections runner's and the reactor's leader: a standby takes over a hung leader within it. */
  LEADER_LEASE_MS: z.coerce.number().int().min(LEADER_LEASE_MS.min).max(LEADER_LEASE_MS.max).default(LEADER_LEASE_MS.default),
  /**
   * Most rows an unpaged list, statistics answer or inline CSV may hold (issue 28): above it, 422 asking
   * for narrower filters or pages. Default: a year of the busiest agency of the 1M-ticket bench (85,000 statistics items) and a margin.
   */
  UNPAGED_ROWS_MAX: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** Heavy reads (unpaged lists, statistics, inline CSV) one user may run at once on one API instance; past it, 429. */
  HEAVY_READS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Heavy reads one API instance runs at once, every user together; past it, 429. */
  HEAVY_READS_PER_INSTANCE: z.coerce.number().int().min(1).max(1_000).default(4),
});

export type Env = Omit<z.infer<typeof envSchema>, 'PUBLIC_URL'> & { PUBLIC_URL: string };

export class EnvError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Configuration invalide :\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
    this.problems = problems;
  }
}

/** Parses the environment; throws one EnvError listing every bad key. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const result = envSchema.safeParse(cleaned);
  if (result.success) {
    if (result.data.NODE_ENV === 'production' && !result.data.TOKEN_SECRET) {
      throw new EnvError(['TOKEN_SECRET: obligatoire en production']);
    }
    return { ...result.data, PUBLIC_URL: (result.data.PUBLIC_URL ?? `http://localhost:${result.data.PORT}`).replace(/\/+$/, '') };
  }
  throw new EnvError(result.error.issues.map((issue) => `${issue.path.join('.') || '(racine)'}: ${issue.message}`));
}
