import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type PostgresEventStore } from '@fsm/eventstore';
import { recordFigures } from './support/figures.js';
import { freePort } from './support/free-port.js';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis.js';
import { killAllStarted, startApiProcess, startProcess, type RoleProcess } from './support/processes.js';
import { until } from './support/wait.js';
import { FAULTS_TOKEN_SECRET, api, createWorld, openVisibleTicket, worldProjected, type ApiAnswer, type World } from './support/world.js';

/*
 * Issue 12, item 5 — Postgres restart. The API, projections and workers
 * processes run against a Postgres server of the test's own (never the shared one), which
 * the test stops ("fast" shutdown: every session is cut, as in a maintenance
 * restart) and starts again. While it is down every request answers 503 with
 * a French message (never a crash, never a hang, never a 500); once it is back
 * the same processes — not restarted — answer again, commands included.
 */

let server: PrivatePostgres;
let redis: PrivateRedis;
let pool: pg.Pool;
let store: PostgresEventStore;
let dataDir: string;
let base: string;
let apiProcess: RoleProcess;
let projections: RoleProcess;
let workers: RoleProcess;
let world: World;

beforeAll(async () => {
  server = await startPrivatePostgres();
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE fsm_faults');
  await admin.end();
  const url = server.urlOf('fsm_faults');
  redis = await startPrivateRedis();
  pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined); // the test's own idle connections die with the server too
  store = createPostgresEventStore({ pool, notify: false });
  await store.migrate();
  world = await createWorld(pool, store, { technicians: 1 });
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-faults-pg-restart-'));
  const env = { DATABASE_URL: url, DATA_DIR: dataDir, TOKEN_SECRET: FAULTS_TOKEN_SECRET, REDIS_URL: redis.url };
  projections = startProcess('projections/src/main.ts', { ...env, LOG_LEVEL: 'info' }, 'projections');
  // The workers role's own entry point too (e-mails go to DATA_DIR/outbox: no SMTP_URL).
  workers = startProcess('workers/src/main.ts', { ...env, LOG_LEVEL: 'warn' }, 'workers');
  ({ process: apiProcess, url: base } = await startApiProcess(env, await freePort()));
  await worldProjected(pool, world);
}, 180_000);

afterAll(async () => {
  await killAllStarted();
  await store?.close().catch(() => undefined);
  await pool?.end().catch(() => undefined);
  await redis?.destroy();
  await server?.destroy();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const FRENCH_UNAVAILABLE = /indisponible|réessayer/i;

describe('the API while its Postgres restarts', () => {
  it('answers 503 in French while Postgres is down and recovers without a restart', { timeout: 240_000 }, async () => {
    const { ticketId } = await openVisibleTicket(base, world.admin, world.installationId);
    expect((await api(base, world.admin.token, 'GET', `/api/tickets/${ticketId}`)).status).toBe(200);
    expect((await api(base, null, 'GET', '/api/health')).body.status).toBe('ok');
    const pids = { api: apiProcess.pid, projections: projections.pid, workers: workers.pid };

    await server.stop();

    // Reads, commands, a creation, the health check: all 503, French, coded — and the process stays up.
    const whileDown: ({ what: string } & ApiAnswer)[] = [];
    const requests: [string, () => Promise<ApiAnswer>][] = [
      ['GET /api/tickets', () => api(base, world.admin.token, 'GET', '/api/tickets')],
      ['GET /api/tickets/:id', () => api(base, world.admin.token, 'GET', `/api/tickets/${ticketId}`)],
      ['PATCH /api/tickets/:id (take in charge)', () => api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketId}`, { statut: 'en_cours', technicien_id: world.technicians[0]!.id })],
      [
        'POST /api/tickets/manual/ticket-create',
        () => api(base, world.admin.token, 'POST', '/api/tickets/manual/ticket-create', { installation_id: world.installationId, nom: 'Martin', prenom: 'Claire', email: 'claire@example.fr', telephone: '0612345678', probleme: 'Alarme' }),
      ],
      ['POST /api/login', () => api(base, null, 'POST', '/api/login', { email: 'admin@faults.test', motdepasse: 'Faults-2026!' })],
    ];
    for (let round = 0; round < 5; round++) {
      for (const [what, send] of requests) {
        const answer = await send().catch((error: unknown) => {
          throw new Error(`${what}: ${String(error)} (the API process died?)\n${apiProcess.output()}`);
        });
        whileDown.push({ what, ...answer });
      }
    }
    const health = await api(base, null, 'GET', '/api/health');
    expect(health.status).toBe(503);
    // Anonymous: the status alone (the details need an admin_plus, who cannot sign in while Postgres is down).
    expect(health.body).toEqual({ status: 'down' });
    for (const answer of whileDown) {
      expect({ what: answer.what, status: answer.status }).toEqual({ what: answer.what, status: 503 });
      expect(answer.body.error, answer.what).toMatch(FRENCH_UNAVAILABLE);
      expect(answer.body.code).toBe('UNAVAILABLE');
    }
    expect(apiProcess.alive, apiProcess.output()).toBe(true);

    await server.start();

    // The same API process answers again: reads first, then a command with read-your-writes.
    await until(async () => (await api(base, world.admin.token, 'GET', `/api/tickets/${ticketId}`)).status === 200, 'the API to answer again', 60_000, 200);
    const taken = await until(
      async () => {
        const res = await api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketId}`, { statut: 'en_cours', technicien_id: world.technicians[0]!.id });
        expect([200, 503]).toContain(res.status);
        return res.status === 200 ? res : undefined;
      },
      'a command to be applied again',
      60_000,
      200,
    );
    // The projections process reconnects by itself; the change shows without any restart.
    await until(async () => (await api(base, world.admin.token, 'GET', `/api/tickets/${ticketId}`)).body.statut === 'en_cours', 'the read model to show the command', 60_000, 200).catch(
      (error: unknown) => {
        throw new Error(`${String(error)} (projections alive: ${projections.alive})\n${projections.output()}\n${apiProcess.output()}`);
      },
    );
    const readYourWritesRightAfter = taken.body.statut === 'en_cours';
    // Once recovered, read-your-writes holds again: the answer of a command already shows it.
    const { ticketId: second } = await openVisibleTicket(base, world.admin, world.installationId);
    const secondTaken = await api(base, world.admin.token, 'PATCH', `/api/tickets/${second}`, { statut: 'en_cours', technicien_id: world.technicians[0]!.id });
    expect(secondTaken.status).toBe(200);
    expect(secondTaken.body.statut).toBe('en_cours');
    await until(async () => (await api(base, null, 'GET', '/api/health')).body.status === 'ok', 'the health check to say ok', 30_000, 200);

    // No role was restarted: same processes, still alive.
    expect(apiProcess.alive, apiProcess.output()).toBe(true);
    expect(projections.alive, projections.output()).toBe(true);
    expect(workers.alive, workers.output()).toBe(true);
    expect({ api: apiProcess.pid, projections: projections.pid, workers: workers.pid }).toEqual(pids);

    recordFigures('postgres-restart', {
      requestsWhilePostgresDown: whileDown.length,
      answered503: whileDown.filter((a) => a.status === 503).length,
      message: whileDown[0]?.body.error,
      healthWhileDown: health.body.status,
      apiRestarted: false,
      projectionsRestarted: false,
      workersRestarted: false,
      firstCommandAnswerAlreadyProjected: readYourWritesRightAfter,
    });
  });
});
