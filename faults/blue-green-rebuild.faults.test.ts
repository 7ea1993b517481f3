import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresEventStore } from '@fsm/eventstore';
import { recordFigures } from './support/figures.js';
import { freePort } from './support/free-port.js';
import { startLogDatabase, writeRealisticLog, type LogDatabase } from './support/log-database.js';
import type { PrivateDatabase } from './support/private-postgres.js';
import { killAllStarted, startApiProcess, startProcess, type RoleProcess } from './support/processes.js';
import { sleep, until } from './support/wait.js';
import { startRoleEnvironment, type RoleEnvironment } from './support/role-environment.js';
import { WORLD_PASSWORD, addWorldUser, api, createWorld, openVisibleTicket, worldProjected, type World } from './support/world.js';

/*
 * Issue 20, item 1 — a rebuild never signs users out nor empties a screen.
 * On a log of 20,000 realistic events, the real processes (API, projections)
 * run; clients sign in, list the open and the closed tickets and open a
 * ticket of each list every 100 ms while (1) `npm run rebuild` rebuilds every
 * read model, (2) the projections process starts with two projectors' versions
 * changed. Blue/green (docs/operations.md): the rebuilt tables are built
 * beside the live ones and swapped in one transaction, so every answer is a
 * 200 equal to the answer before the rebuild (no data changes meanwhile), and
 * the tables really were replaced (new relations), only the changed ones in (2).
 */

const EVENTS = Number(process.env.FAULTS_LOG_EVENTS ?? 20_000);
const CLIENTS = 3;

let database: LogDatabase;
let db: PrivateDatabase;
let roles: RoleEnvironment;
let pool: pg.Pool;
let store: PostgresEventStore;
let base: string;
let projections: RoleProcess;
let world: World;
let email: string;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  database = await startLogDatabase({ poolSize: 8, fastCommits: true, notify: false });
  ({ db, pool, store } = database);
  const log = await writeRealisticLog(store, EVENTS, 6);
  Object.assign(figures, { eventsInLog: log.events, tickets: log.tickets });
  // Users created at the end of the log: the ones the issue saw signed out the most.
  world = await createWorld(pool, store, { technicians: 1 });
  const pilote = await addWorldUser(pool, store, world.agenceId, 'admin_plus', 'Pilote');
  const userId = pilote.id;
  email = pilote.email;
  roles = await startRoleEnvironment(db.url, 'blue-green');
  projections = startProjections();
  // Behind a proxy (the test), each sign-in comes from its own user's address: the login rate limit is per address.
  ({ url: base } = await startApiProcess({ ...roles.env, TRUST_PROXY: 'loopback' }, await freePort()));
  await worldProjected(pool, world, 180_000);
  await until(async () => (await pool.query('SELECT 1 FROM rm.users WHERE id = $1', [userId])).rowCount === 1, 'the last user to be projected', 180_000, 100);
  // One ticket of our own, then the whole log projected.
  await openVisibleTicket(base, world.admin, world.installationId);
  await until(async () => (await caughtUp()) && (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rm.tickets')).rows[0]!.n >= log.tickets, 'the log to be projected', 300_000, 200);
}, 600_000);

afterAll(async () => {
  await killAllStarted();
  await database?.close();
  await roles?.close();
});

function startProjections(): RoleProcess {
  return startProcess('projections/src/main.ts', { ...roles.env, LOG_LEVEL: 'warn' }, 'projections');
}

/** The live runner at the head, with no rebuild asked for or in progress. */
async function caughtUp(): Promise<boolean> {
  const { rows } = await pool.query<{ name: string; position: string | null; rebuild_requested: boolean }>('SELECT name, position, rebuild_requested FROM proj.checkpoints');
  const live = rows.find((row) => row.name === 'read-models');
  const head = await store.headPosition();
  return rows.length === 1 && live !== undefined && !live.rebuild_requested && live.position !== null && head !== null && store.comparePositions(live.position, head) >= 0;
}

/** The relation behind each rm table: a rebuilt table is a new relation. */
async function relations(): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ relname: string; oid: number }>(`SELECT c.relname, c.oid::int AS oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'rm' AND c.relkind = 'r'`);
  return Object.fromEntries(rows.map((row) => [row.relname, row.oid]));
}

/**
 * An answer as compared: without `minutes_ecoulees`, the minutes from an open
 * ticket's request to the answer's clock (it moves with time, not with the data).
 */
function comparable(answer: unknown): string {
  return JSON.stringify(answer, (key, value: unknown) => (key === 'minutes_ecoulees' ? undefined : value));
}

interface Answer {
  status: number;
  body: unknown;
}

const OPEN_LIST = '/api/tickets?limit=50';
const CLOSED_LIST = '/api/tickets/clos?limit=50&date_debut=2026-01-01&date_fin=2026-12-31';

let signIns = 0;

/** POST /api/login as a user behind the proxy, each sign-in from another address (60 a minute per address). */
async function signIn(): Promise<Answer> {
  const n = signIns++;
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
    body: JSON.stringify({ email, motdepasse: WORLD_PASSWORD }),
  });
  return { status: res.status, body: await res.json() };
}

/** One round of a client: sign in, then with that token both lists and a ticket of each. */
async function round(ids: { open: string; closed: string }): Promise<Record<string, Answer>> {
  const login = await signIn();
  const token = (login.body as { token?: string }).token ?? null;
  const answers: Record<string, Answer> = { login: { status: login.status, body: (login.body as { user?: unknown }).user ?? login.body } };
  const [open, closed, openDetail, closedDetail] = await Promise.all([
    api(base, token, 'GET', OPEN_LIST),
    api(base, token, 'GET', CLOSED_LIST),
    api(base, token, 'GET', `/api/tickets/${ids.open}`),
    api(base, token, 'GET', `/api/tickets/${ids.closed}`),
  ]);
  return { ...answers, open, closed, openDetail, closedDetail };
}

/**
 * Clients doing rounds every 100 ms until `during` resolves (and one second
 * more): every answer that differs from the answer before is kept.
 */
async function clientsDuring(during: Promise<unknown>): Promise<{ rounds: number; requests: number; differences: { what: string; status: number; body: unknown }[] }> {
  const ids = await sampleIds();
  const first = await round(ids);
  const baseline = await round(ids);
  expect(comparable(baseline)).toEqual(comparable(first));
  for (const [what, answer] of Object.entries(baseline)) expect({ what, status: answer.status }).toEqual({ what, status: 200 });
  let done = false;
  void during.finally(() => sleep(1_000).then(() => (done = true)));
  const differences: { what: string; status: number; body: unknown }[] = [];
  let rounds = 0;
  const client = async () => {
    while (!done) {
      const answers = await round(ids);
      rounds++;
      for (const [what, answer] of Object.entries(answers)) {
        if (comparable(answer) === comparable(baseline[what])) continue;
        // The first difference of each request in full (with the answer before), the others in short.
        const seen = differences.some((difference) => difference.what === what);
        differences.push({ what, status: answer.status, body: seen ? '(different)' : { now: answer.body, before: baseline[what]!.body } });
      }
      await sleep(100);
    }
  };
  await Promise.all([during, ...Array.from({ length: CLIENTS }, client)]);
  return { rounds, requests: rounds * 5, differences };
}

async function sampleIds(): Promise<{ open: string; closed: string }> {
  const token = ((await signIn()).body as { token: string }).token;
  const open = (await api(base, token, 'GET', OPEN_LIST)).body.tickets as { id: string }[];
  const closed = (await api(base, token, 'GET', CLOSED_LIST)).body.tickets as { id: string }[];
  expect(open.length).toBeGreaterThan(0);
  expect(closed.length).toBeGreaterThan(0);
  return { open: open[open.length - 1]!.id, closed: closed[closed.length - 1]!.id };
}

describe('blue/green rebuild of the read models', () => {
  it('`npm run rebuild` while clients work: 0 errors, 0 401, every answer as before; every table replaced', { timeout: 600_000 }, async () => {
    const before = await relations();
    const started = Date.now();
    const rebuild = startProcess('projections/src/rebuild-cli.ts', { ...roles.env, LOG_LEVEL: 'warn' }, 'rebuild');
    const exited = rebuild.exited;
    const { rounds, requests, differences } = await clientsDuring(exited);
    const { code } = await exited;
    expect(code, rebuild.output()).toBe(0);
    expect(rebuild.output()).toMatch(/Vues reconstruites/);
    expect(differences).toEqual([]);
    const after = await relations();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) expect({ table, replaced: after[table] !== before[table] }).toEqual({ table, replaced: true });
    expect(await caughtUp()).toBe(true);
    Object.assign(figures, { manualRebuild: { rounds, requests, errors: differences.length, seconds: Math.round((Date.now() - started) / 1000) } });
  });

  it('a projector version bump at start-up: the same, and only the changed read models are rebuilt', { timeout: 600_000 }, async () => {
    await projections.stop();
    // What a deployment with new `tickets` and `users` projectors looks like to the runner.
    const { rows } = await pool.query<{ versions: Record<string, number> }>(`SELECT versions FROM proj.checkpoints WHERE name = 'read-models'`);
    const current = rows[0]!.versions;
    await pool.query(`UPDATE proj.checkpoints SET versions = $1 WHERE name = 'read-models'`, [JSON.stringify({ ...current, tickets: current.tickets! - 1, users: current.users! - 1 })]);
    const before = await relations();
    const started = Date.now();
    const swapped = (async () => {
      projections = startProjections();
      await until(
        async () => {
          if (!projections.alive) throw new Error(`the projections process died\n${projections.output()}`);
          const stored = await pool.query<{ versions: Record<string, number> }>(`SELECT versions FROM proj.checkpoints WHERE name = 'read-models'`);
          return JSON.stringify(stored.rows[0]!.versions) === JSON.stringify(current) && (await caughtUp());
        },
        'the rebuilt read models to be swapped in',
        300_000,
        100,
      );
    })();
    const { rounds, requests, differences } = await clientsDuring(swapped);
    expect(differences).toEqual([]);
    const after = await relations();
    expect(after.tickets).not.toBe(before.tickets);
    expect(after.users).not.toBe(before.users);
    // Not rebuilt: neither versioned anew nor reading a changed read model.
    expect(after.clients).toBe(before.clients);
    expect(after.installations).toBe(before.installations);
    Object.assign(figures, { versionBump: { rounds, requests, errors: differences.length, seconds: Math.round((Date.now() - started) / 1000) } });
    recordFigures('blue-green-rebuild', figures);
  });
});
