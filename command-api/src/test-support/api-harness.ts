import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { agenceEventSchema, agenceStreamId, defaultPermissionsForRole, parseEnv, parseRecorded, userEventSchema, userStreamId, type Role } from '@fsm/contracts';
import { createPostgresEventStore, type EventStore } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { ProjectionRunner, ProjectionWatcher, readModelProjectors } from '@fsm/projections';
import { createAppDeps, type AppDeps } from '../app-deps.js';
import { buildApp } from '../app.js';
import { migrateAuth } from '../auth/credentials.js';
import { migrateIdempotency } from '../http/idempotency.js';
import { createTokenService } from '../auth/tokens.js';
import type { RateLimitBackend } from '../http/rate-limits.js';
import { commandContext } from '../commands/command-context.js';
import { execute, type Actor } from '../commands/execute.js';
import { handleCreateStaffUser, handleCreateTelesurvAccount } from '../commands/user-commands.js';
import { agenceDecider } from '../domain/agence/index.js';
import { userDecider } from '../domain/user/index.js';

export const TEST_PASSWORD = 'Test-2026!';

export interface TestUserOptions {
  role: Role;
  agenceId?: string | null;
  permissions?: string[];
  email?: string;
  telesurvAgences?: string[];
  /** Staff only: defaults `prenom` = the role, `nom` = 'Test'. */
  prenom?: string;
  nom?: string;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  role: Role;
  agenceId: string | null;
}

export interface ApiHarness {
  app: FastifyInstance;
  deps: AppDeps;
  pool: pg.Pool;
  store: EventStore;
  db: TestDatabase;
  /** The read models' projection runner: a test may stop it (read models late) and start it again. */
  runner: ProjectionRunner;
  /** BullMQ prefix of this file's template previews: workers started with it answer them. */
  queuePrefix: string;
  /** Moves the clock the app sees. */
  setNow(date: Date): void;
  system: Actor;
  createAgence(nom?: string): Promise<string>;
  createUser(options: TestUserOptions): Promise<TestUser>;
  /** `app.inject` with the user's bearer token and JSON body. */
  request(user: TestUser | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The real app on a real database for one test file: event store, projection
 * runner, watcher, token service — everything but the network listener.
 */
export interface ApiHarnessOptions {
  /**
   * READ_YOUR_WRITES_TIMEOUT_MS. Long by default: under load on a shared server a
   * command waiting 5 s would answer 202 (read models late) where a test expects
   * its 200/201. A test of the late answer itself sets a short one.
   */
  readYourWritesTimeoutMs?: number;
  /** More settings, as the environment gives them (UNPAGED_ROWS_MAX, HEAVY_READS_PER_USER…). */
  env?: Record<string, string>;
}

export async function createApiHarness(label: string, options: ApiHarnessOptions = {}): Promise<ApiHarness> {
  const db = await createTestDatabase(label);
  const pool = new pg.Pool({ connectionString: db.url, max: 10 });
  // DROP DATABASE … WITH (FORCE) at the end terminates idle connections: not an error here.
  pool.on('error', () => undefined);
  const store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
  await store.migrate();
  await migrateAuth(pool);
  await migrateIdempotency(pool);
  const runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 100 });
  await runner.migrate();
  await runner.start();
  const watcher = new ProjectionWatcher({ pool, connectionString: db.url, compare: (a, b) => store.comparePositions(a, b), pollIntervalMs: 100 });
  runner.on('advanced', (advance) => watcher.observe(advance));
  await watcher.start();
  const dataDir = await mkdtemp(join(tmpdir(), 'fsm-api-'));
  let now: Date | null = null;
  const env = parseEnv({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    READ_YOUR_WRITES_TIMEOUT_MS: String(options.readYourWritesTimeoutMs ?? 30_000),
    ...options.env,
  });
  const queuePrefix = `api${randomUUID().slice(0, 8)}`;
  const deps = createAppDeps({
    env,
    pool,
    store,
    watcher,
    tokens: createTokenService({ secret: 'test-secret-that-is-long-enough-0123456789', ttlHours: 1, now: () => now ?? new Date() }),
    redisPing: async () => true,
    clock: () => now ?? new Date(),
    // Each file its own key prefix: limits counted by one file never reach another.
    keyPrefix: queuePrefix,
    previewTimeoutMs: 10_000,
  });
  const app = await buildApp(deps);
  const system: Actor = { userId: null, userName: 'système', correlationId: randomUUID() };
  const context = commandContext(deps);

  const harness: ApiHarness = {
    app,
    deps,
    pool,
    store,
    db,
    runner,
    queuePrefix,
    system,
    setNow(date) {
      now = date;
    },
    async createAgence(nom = `Agence ${randomUUID().slice(0, 6)}`) {
      const agenceId = randomUUID();
      await execute(
        context,
        agenceDecider,
        agenceStreamId(agenceId),
        {
          type: 'CreateAgence',
          data: {
            agenceId,
            fields: { nom, adresse: '12 rue des Pompiers', cp_postal: '69003', ville: 'Lyon', telephone: '04 78 00 00 00' },
            createdAt: deps.clock().toISOString(),
          },
        },
        system,
        (recorded) => parseRecorded(agenceEventSchema, recorded),
      );
      return agenceId;
    },
    async createUser({ role, agenceId = null, permissions, email, telesurvAgences, prenom, nom }) {
      const userId = randomUUID();
      const address = email ?? `${role}.${userId.slice(0, 8)}@test.fr`;
      const at = deps.clock();
      if (role === 'telesurveillance') {
        await handleCreateTelesurvAccount(
          { context, db: pool, actor: system, now: at },
          { userId, fields: { nom: 'Veille', email: address, telephone: '0600000000' }, password: TEST_PASSWORD },
        );
        if (telesurvAgences) {
          await execute(context, userDecider, userStreamId(userId), { type: 'SetTelesurvAgences', data: { userId, agences: telesurvAgences, updatedAt: at.toISOString() } }, system, (r) =>
            parseRecorded(userEventSchema, r),
          );
        }
      } else {
        await handleCreateStaffUser({ context, db: pool, actor: system, now: at }, {
          userId,
          fields: { nom: nom ?? 'Test', prenom: prenom ?? role, email: address, telephone: '0600000000', role, agence_id: agenceId ?? (await harness.createAgence()) },
          password: TEST_PASSWORD,
        });
        if (permissions && permissions.join() !== defaultPermissionsForRole(role).join()) {
          await execute(context, userDecider, userStreamId(userId), { type: 'SetUserPermissions', data: { userId, permissions, updatedAt: at.toISOString() } }, system, (r) =>
            parseRecorded(userEventSchema, r),
          );
        }
      }
      const { rows } = await pool.query<{ agence_id: string | null }>('SELECT agence_id FROM rm.users WHERE id = $1', [userId]);
      return { id: userId, email: address, password: TEST_PASSWORD, token: await deps.tokens.sign({ sub: userId }), role, agenceId: rows[0]?.agence_id ?? null };
    },
    request(user, options) {
      return app.inject({
        ...options,
        headers: { ...(options.headers ?? {}), ...(user ? { authorization: `Bearer ${user.token}` } : {}) },
      });
    },
    async close() {
      await app.close();
      await deps.previews.close();
      await dropRateLimitKeys(deps.rateLimits);
      deps.rateLimits.redis.disconnect();
      await watcher.close();
      await runner.stop();
      await store.close();
      await pool.end();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** The harness of a two-agency world and its agencies' ids. */
export interface TwoAgencyWorld {
  h: ApiHarness;
  lyon: string;
  paris: string;
}

/**
 * The world of the read-side tests (lists, statistics, the home summary): the
 * app at `now`, 'Agence de Lyon' then 'Agence de Paris', the file's tickets,
 * then its users, one after the other in the order given. The order is the
 * world: golden answers (ids in order of appearance) depend on it.
 */
export async function createTwoAgencyWorld<K extends string = never>(
  label: string,
  options: {
    now: Date;
    seedTickets: (world: TwoAgencyWorld) => Promise<void>;
    users?: (world: TwoAgencyWorld) => Record<K, TestUserOptions>;
  },
): Promise<TwoAgencyWorld & { users: Record<K, TestUser> }> {
  const h = await createApiHarness(label);
  try {
    h.setNow(options.now);
    const world: TwoAgencyWorld = { h, lyon: await h.createAgence('Agence de Lyon'), paris: await h.createAgence('Agence de Paris') };
    await options.seedTickets(world);
    const users = {} as Record<K, TestUser>;
    for (const [key, user] of Object.entries(options.users?.(world) ?? {}) as [K, TestUserOptions][]) users[key] = await h.createUser(user);
    return { ...world, users };
  } catch (error) {
    await h.close();
    throw error;
  }
}

/** Polls `check` until it holds, 30 s at most: for what the read models show a little later. */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Removes a test's rate-limit counters (they would expire within a minute anyway). */
export async function dropRateLimitKeys({ redis, prefix }: RateLimitBackend): Promise<void> {
  const keys = await redis.keys(`${prefix}*`).catch(() => []);
  if (keys.length > 0) await redis.del(...keys).catch(() => undefined);
}
