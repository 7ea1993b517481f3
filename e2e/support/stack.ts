import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { parseEnv } from '@fsm/contracts';
import { createEventStore, productPoolConfig } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { startAllRoles } from '@fsm/launcher';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WEB_ROOT = join(REPO_ROOT, 'web', 'dist');
export const DEMO_PASSWORD = 'Demo-2026!';

interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
}

/** An in-process SMTP catcher: every message is kept in `mails`. */
interface SmtpCatcher {
  port: number;
  mails: CaughtMail[];
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** True when web/dist has an index.html whose every referenced asset is present. */
function webBuildComplete(root: string, atRest = true): boolean {
  const index = join(root, 'index.html');
  if (!existsSync(index)) return false;
  const html = readFileSync(index, 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  if (assets.length === 0 || !assets.every((asset) => existsSync(join(root, asset)))) return false;
  if (!atRest) return true;
  // Lazy chunks are not listed in index.html: also ask for a build at rest for 3 s.
  const newest = Math.max(...[root, join(root, 'assets'), ...readdirSync(join(root, 'assets')).map((f) => join(root, 'assets', f))].map((f) => statSync(f).mtimeMs));
  return Date.now() - newest > 3_000;
}

/**
 * A private copy of the built web UI for one stack. web/dist is shared with
 * whoever else works in this checkout: a rebuild during a run swaps the hashed
 * asset names under the browser (index.html then comes back for a module
 * script, and the page stays blank). Builds it first when missing or partial.
 */
async function snapshotWebBuild(into: string): Promise<string> {
  for (let attempt = 0; !webBuildComplete(WEB_ROOT); attempt++) {
    if (attempt === 0 && !existsSync(join(WEB_ROOT, 'index.html'))) {
      execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO_ROOT, stdio: 'inherit' });
      continue;
    }
    // Maybe someone else's build in progress: give it a moment, then build ourselves.
    if (attempt < 30) await new Promise((resolve) => setTimeout(resolve, 1_000));
    else if (attempt === 30) execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO_ROOT, stdio: 'inherit' });
    else throw new Error(`interface web incomplète dans ${WEB_ROOT}`);
  }
  const target = join(into, 'web');
  cpSync(WEB_ROOT, target, { recursive: true });
  if (!webBuildComplete(target, false)) throw new Error('copie de web/dist incomplète (reconstruction concurrente ?)');
  return target;
}

export interface Stack {
  baseUrl: string;
  db: TestDatabase;
  /** A client on the test database, for looking up seeded rows (schema `rm`). */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  smtp: SmtpCatcher;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The whole product in this process, as `launcher` starts it, against a fresh
 * database, a temporary DATA_DIR, its own BullMQ prefix and an SMTP catcher,
 * with the demo data seeded and the built web UI served.
 */
export async function startStack(label: string): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fsm-e2e-'));
  let webRoot: string;
  try {
    webRoot = await snapshotWebBuild(dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const db = await createTestDatabase(`e2e_${label}`);
  const smtp = await startSmtpCatcher();
  const queuePrefix = `e2e${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const env = parseEnv({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    WEB_ROOT: webRoot,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    // Long: under load a command whose read models are later than this answers 202, not the 200 the tests expect.
    READ_YOUR_WRITES_TIMEOUT_MS: '30000',
  });
  let stopped = false;
  const logger = pino({ level: env.LOG_LEVEL, name: 'fsm-e2e' });
  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 20));
  // Idle clients killed by DROP DATABASE ... WITH (FORCE) must not crash the run.
  pool.on('error', (error) => {
    if (!stopped) logger.error({ err: error }, 'e2e pool error');
  });
  const store = createEventStore({ EVENTSTORE_URL: env.EVENTSTORE_URL, DATABASE_URL: env.DATABASE_URL }, { pool });
  await store.migrate();
  const roles = await startAllRoles({ env, pool, store, logger, webRoot, queuePrefix });

  return {
    baseUrl: env.PUBLIC_URL,
    db,
    smtp,
    dataDir,
    async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
      return (await pool.query<T>(sql, params)).rows;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await roles.close();
      await smtp.close().catch(() => undefined);
      // pool.end() can resolve while ended clients are still closing their
      // sockets; DROP DATABASE ... WITH (FORCE) would then kill them mid-close
      // and their 'error' would surface as an uncaught exception. Wait them out.
      await waitForNoConnections(db.url).catch(() => undefined);
      await db.drop().catch(() => undefined);
      await dropQueueKeys(env.REDIS_URL, queuePrefix).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitForNoConnections(url: string, timeoutMs = 5_000): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await probe.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      if ((rows[0]?.n ?? 0) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await probe.end();
  }
}

/** Removes this run's BullMQ keys (its own prefix) from the shared Redis. */
async function dropQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
