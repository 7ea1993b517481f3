import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { agenceEventSchema, agenceStreamId, parseRecorded } from '@fsm/contracts';
import { createPostgresEventStore, type PostgresEventStore } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { migrateAuth } from '../src/auth/credentials.js';
import { createTokenService } from '../src/auth/tokens.js';
import { execute, type Actor, type CommandContext } from '../src/commands/execute.js';
import { handleCreateStaffUser } from '../src/commands/user-commands.js';
import { agenceDecider } from '../src/domain/agence/index.js';

/*
 * The roles deployed apart (docker-compose.yml): two API processes and one
 * projections process, each a separate Node process started from the role's
 * own entry point, on different ports, against the same database. A command sent
 * to one API instance reaches the WebSocket clients of the other: the
 * projections process NOTIFYs `projections_advanced`, every API instance LISTENs.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN_SECRET = 'multi-instance-secret-that-is-long-enough-0123';
const children: ChildProcess[] = [];
let db: TestDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;
let dataDir: string;
let env: NodeJS.ProcessEnv;

/** Starts a role from its TypeScript entry point and resolves once `ready` matches a log line. */
function startRole(entry: string, extraEnv: NodeJS.ProcessEnv, ready: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], { cwd: root, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(String(chunk)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start: ${stderr.join('')}`)), 45_000);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${stderr.join('')}`)));
    createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return;
      }
      if (ready(line)) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface LiveClient {
  messages: { position?: string; streams?: string[] }[];
  socket: WebSocket;
}

function connectLive(base: string, token: string): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}`);
    const client: LiveClient = { messages: [], socket };
    socket.on('message', (data) => client.messages.push(JSON.parse(String(data)) as LiveClient['messages'][number]));
    socket.on('open', () => resolve(client));
    socket.on('error', reject);
  });
}

let apiA: string;
let apiB: string;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase('multi_instance');
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined);
  store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
  await store.migrate();
  await migrateAuth(pool);
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-multi-'));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATA_DIR: dataDir,
    TOKEN_SECRET,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
  };

  // The projections role logs little: its readiness shows below, when the user it projects appears.
  void startRole('projections/src/main.ts', {}, () => true).catch(() => undefined);
  const [a, b] = await Promise.all([
    startRole('command-api/src/main.ts', {}, (line) => line.msg === 'API prête'),
    startRole('command-api/src/main.ts', {}, (line) => line.msg === 'API prête'),
  ]);
  apiA = String(a.url);
  apiB = String(b.url);
  expect(apiA).not.toBe(apiB);

  // An agency admin, written straight to the log; the projections PROCESS makes it visible.
  const context: CommandContext = { store, newId: randomUUID, waitForProjection: async () => true };
  const system: Actor = { userId: null, userName: 'système', correlationId: randomUUID() };
  const agenceId = randomUUID();
  const at = new Date();
  await execute(
    context,
    agenceDecider,
    agenceStreamId(agenceId),
    { type: 'CreateAgence', data: { agenceId, fields: { nom: 'Agence Multi', adresse: '1 rue du Feu', cp_postal: '69003', ville: 'Lyon', telephone: '0478000000' }, createdAt: at.toISOString() } },
    system,
    (recorded) => parseRecorded(agenceEventSchema, recorded),
  );
  const userId = randomUUID();
  await handleCreateStaffUser({ context, db: pool, actor: system, now: at }, {
    userId,
    fields: { nom: 'Multi', prenom: 'Admin', email: `admin.${userId.slice(0, 8)}@test.fr`, telephone: '0600000000', role: 'admin', agence_id: agenceId },
    password: 'Test-2026!',
  });
  await until(async () => {
    const { rows } = await pool.query('SELECT 1 FROM rm.users WHERE id = $1', [userId]).catch(() => ({ rows: [] }));
    return rows.length > 0 ? true : undefined;
  }, 'the projections process to project the user');
  token = await createTokenService({ secret: TOKEN_SECRET, ttlHours: 1 }).sign({ sub: userId });
}, 120_000);

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await store?.close();
  await pool?.end();
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 30_000);

describe('two API processes and one projections process on one database', () => {
  it('a command sent to one instance reaches the WebSocket clients of the other', async () => {
    const onA = await connectLive(apiA, token);
    const onB = await connectLive(apiB, token);
    try {
      const post = async (base: string, nom: string) => {
        const res = await fetch(`${base}/api/clients`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ nom, adresse: '5 place d’Arsonval', ville: 'Lyon', code_postal: '69003' }),
        });
        expect(res.status, await res.clone().text()).toBe(201);
        return ((await res.json()) as { id: string }).id;
      };
      const pushed = (client: LiveClient, id: string) => async () => (client.messages.some((m) => m.streams?.some((s) => s.includes(id))) ? true : undefined);

      // A → clients of B (and of A).
      const first = await post(apiA, 'Clinique du Parc');
      await until(pushed(onB, first), 'instance B to push the change made on A', 10_000);
      await until(pushed(onA, first), 'instance A to push its own change', 10_000);

      // B → clients of A; and read-your-writes holds on each instance.
      const second = await post(apiB, 'Hôpital Nord');
      await until(pushed(onA, second), 'instance A to push the change made on B', 10_000);
      for (const base of [apiA, apiB]) {
        const list = (await (await fetch(`${base}/api/clients`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
        expect(list.map((c) => c.id)).toEqual(expect.arrayContaining([first, second]));
      }
    } finally {
      onA.socket.close();
      onB.socket.close();
    }
  }, 60_000);
});
