import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { HEAVY_ROLE_NICENESS } from '../src/role-supervisor.js';

/*
 * Issue 28, item 3: `npm start` (launcher/src/main.ts, from its sources as
 * `npm run dev` runs it) keeps the API in its process and runs projections and
 * workers in child processes, with a heap limit and a lower priority, and
 * starts a crashed one again.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// A Redis database of its own: the queues of this run's deployment are removed after.
const REDIS_URL = 'redis://127.0.0.1:6379/12';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Fields of /proc/<pid>/stat after the command name (index 0 is the state). */
function statFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const niceOf = (pid: number, thread = pid) => Number(statFields(`/proc/${pid}/task/${thread}/stat`)[16]);
const threadsOf = (pid: number) => readdirSync(`/proc/${pid}/task`).map(Number);
const argvOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

/** The launcher's child running `projections` or `workers`, by its command line. */
function childRunning(parent: number, role: 'projections' | 'workers'): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(`/proc/${entry}/stat`)[1]) !== parent) continue;
      if (argvOf(Number(entry)).some((arg) => arg.endsWith(`${role}/src/main.ts`))) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let db: TestDatabase;
let pool: pg.Pool;
let dataDir: string;
let launcher: ChildProcess;
let baseUrl: string;
let output = '';

const leaseHolder = async (): Promise<string | undefined> =>
  (await pool.query<{ holder: string }>(`SELECT holder FROM consumers.leases WHERE name = 'projections:read-models' AND expires_at > now()`).catch(() => ({ rows: [] }))).rows[0]?.holder;

beforeAll(async () => {
  db = await createTestDatabase('launcher_apart');
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  dataDir = mkdtempSync(join(tmpdir(), 'fsm-launcher-'));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  launcher = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'launcher/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      REDIS_URL,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      LEADER_LEASE_MS: '3000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000));
  launcher.stdout!.on('data', keep);
  launcher.stderr!.on('data', keep);
  await until('the API', async () => {
    const answer = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
    return answer && (answer.status === 200 || answer.status === 503) ? true : undefined;
  });
}, 120_000);

afterAll(async () => {
  if (launcher && launcher.exitCode === null && launcher.signalCode === null) launcher.kill('SIGKILL');
  // The deployment's queues are named after its log (docs/operations.md): remove this run's.
  const logId = (await pool?.query<{ log_id: string }>(`SELECT log_id FROM es.log_identity`).catch(() => ({ rows: [] })))?.rows[0]?.log_id;
  if (logId) {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`fsm-${logId}:*`).catch(() => []);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await pool?.end();
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('npm start runs the heavy roles apart from the API (issue 28, item 3)', () => {
  it('runs projections and workers in child processes with a heap limit and every thread at a lower priority', async () => {
    const launcherPid = launcher.pid!;
    const projections = await until('the projections child', () => childRunning(launcherPid, 'projections'));
    const workers = await until('the workers child', () => childRunning(launcherPid, 'workers'));
    expect(argvOf(projections)).toContain('--max-old-space-size=448');
    expect(argvOf(workers)).toContain('--max-old-space-size=384');
    for (const pid of [projections, workers]) {
      for (const thread of threadsOf(pid)) expect(niceOf(pid, thread)).toBe(HEAVY_ROLE_NICENESS);
    }
    expect(niceOf(launcherPid)).toBeLessThan(HEAVY_ROLE_NICENESS);
    // The live projection runs there, not in the API's process: the child holds its lease.
    const holder = await until('the projections lease', leaseHolder);
    expect(holder).toContain(`:${projections}:`);
  });

  it('starts a crashed role again, which takes the lease back, while the API keeps answering', async () => {
    const launcherPid = launcher.pid!;
    const first = await until('the projections child', () => childRunning(launcherPid, 'projections'));
    process.kill(first, 'SIGKILL');
    const second = await until('a new projections child', () => {
      const pid = childRunning(launcherPid, 'projections');
      return pid !== undefined && pid !== first ? pid : undefined;
    });
    expect(argvOf(second)).toContain('--max-old-space-size=448');
    await until('the new child to lead', async () => ((await leaseHolder())?.includes(`:${second}:`) ? true : undefined));
    expect((await fetch(`${baseUrl}/api/health`)).status).toBeLessThan(600);
    expect(launcher.exitCode).toBeNull();
  }, 90_000);

  it('stops its children with it on SIGTERM', async () => {
    const launcherPid = launcher.pid!;
    const children = [childRunning(launcherPid, 'projections'), childRunning(launcherPid, 'workers')].filter((pid): pid is number => pid !== undefined);
    expect(children).toHaveLength(2);
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of children) expect(alive(pid)).toBe(false);
  }, 60_000);
});
