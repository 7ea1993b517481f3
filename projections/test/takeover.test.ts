import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type EventStore } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { readModelProjectors } from '../src/read-models/index.js';
import { ProjectionRunner } from '../src/runner/runner.js';
import { waitUntil } from './support.js';

/*
 * Issue: projections safe as several processes. A projections process (the
 * role's own entry point) holds the runner's lease; a second runner waits as a
 * standby. The first process is killed with SIGKILL — no clean shutdown, its
 * session just dies — and the standby takes over within seconds, applying
 * what was written meanwhile, once.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
let db: TestDatabase;
let pool: pg.Pool;
let store: EventStore & { migrate(): Promise<void> };
let child: ChildProcess | undefined;

beforeAll(async () => {
  db = await createTestDatabase('projections_takeover');
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  pool.on('error', () => undefined); // DROP DATABASE … WITH (FORCE) at the end
  store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
  await store.migrate();
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await store?.close();
  await pool?.end();
  await db?.drop();
});

function agenceCreated(nom: string) {
  const agenceId = randomUUID();
  return {
    stream: `agence-${agenceId}`,
    agenceId,
    event: {
      id: randomUUID(),
      type: 'AgenceCreated',
      data: { agenceId, nom, adresse: '1 rue du Feu', cp_postal: '69001', ville: 'Lyon', telephone: '0400000000', templateId: null, createdAt: new Date().toISOString() },
    },
  };
}

async function agenceNames(): Promise<string[]> {
  const { rows } = await pool.query<{ nom: string }>('SELECT nom FROM rm.agences ORDER BY nom').catch(() => ({ rows: [] as { nom: string }[] }));
  return rows.map((row) => row.nom);
}

/** The backend of the session holding the runner's lease. */
async function lockHolderPid(): Promise<number | null> {
  const { rows } = await pool.query<{ pid: number }>(`SELECT backend_pid AS pid FROM consumers.leases WHERE name = 'projections:read-models'`);
  return rows[0]?.pid ?? null;
}

describe('projections as several processes', () => {
  it('a standby takes over within seconds when the active process is killed', async () => {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'projections/src/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent', EVENTSTORE_URL: '' },
      stdio: 'ignore',
    });
    const first = agenceCreated('Agence A');
    await store.appendToStream(first.stream, [first.event], { expectedRevision: 'no_stream' });
    await waitUntil(async () => (await agenceNames()).includes('Agence A'), 30_000, 'the child process to project');
    const childLockPid = await lockHolderPid();
    expect(childLockPid).not.toBeNull();

    const standby = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 200 });
    await standby.migrate();
    await standby.start();
    expect(standby.isActive).toBe(false);

    child.kill('SIGKILL');
    const second = agenceCreated('Agence B');
    await store.appendToStream(second.stream, [second.event], { expectedRevision: 'no_stream' });
    // The killed process's session ends at once, so its lease goes without waiting for the expiry; the standby retries every 200 ms.
    await waitUntil(() => standby.isActive, 15_000, 'the standby to take over');
    await waitUntil(async () => (await agenceNames()).includes('Agence B'), 15_000, 'the standby to project');
    expect(await agenceNames()).toEqual(['Agence A', 'Agence B']);
    expect(await lockHolderPid()).not.toBe(childLockPid);
    await standby.stop();
  });
});
