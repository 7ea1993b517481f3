import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresEventStore } from '@fsm/eventstore';
import { startSmtpCatcher, type SmtpCatcher } from '@fsm/workers/test-support';
import { recordFigures } from './support/figures.js';
import { startLogDatabase, type LogDatabase } from './support/log-database.js';
import { freePort } from './support/free-port.js';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis.js';
import { killAllStarted, startApiProcess, startProcess, type RoleProcess } from './support/processes.js';
import { until } from './support/wait.js';
import { FAULTS_TOKEN_SECRET, api, createWorld, openVisibleTicket, visitBody, worldProjected, type World } from './support/world.js';

/*
 * Issue 12, item 4 — Redis outage. API, projections and workers run as their
 * own processes; Redis is a private redis-server (never the shared 6379),
 * stopped for 60 seconds while users keep working: tickets opened, taken in
 * charge and closed (each close asks the workers for a report), report
 * e-mails asked for. Every command must succeed (events are the truth, the
 * queue is only a consequence), /api/health must say "degraded" while Redis
 * is away, and once it is back every pending report and e-mail is done —
 * e-mails counted at the SMTP server, once each.
 */

const OUTAGE_MS = 60_000;
const USERS = 3;
/** Bounds the work left for after the outage (the point is that it gets done, not how much). */
const MAX_CLOSES = 12;
const MAX_EMAILS = 8;

let database: LogDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;
let redis: PrivateRedis;
let smtp: SmtpCatcher;
let dataDir: string;
let base: string;
let world: World;
let apiProcess: RoleProcess;
let workers: RoleProcess;

beforeAll(async () => {
  database = await startLogDatabase({ poolSize: 6, notify: false });
  ({ pool, store } = database);
  world = await createWorld(pool, store, { technicians: 2 });
  redis = await startPrivateRedis();
  smtp = await startSmtpCatcher();
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-faults-redis-'));
  const env = { DATABASE_URL: database.db.url, DATA_DIR: dataDir, TOKEN_SECRET: FAULTS_TOKEN_SECRET, REDIS_URL: redis.url, SMTP_URL: smtp.url, MAIL_FROM: 'Agence Lyon <rapports@agence.test>' };
  startProcess('projections/src/main.ts', { ...env, LOG_LEVEL: 'silent' }, 'projections');
  workers = startProcess('faults/support/workers-process.ts', { ...env, LOCK_MS: '5000', LOG_LEVEL: 'warn' }, 'workers');
  ({ process: apiProcess, url: base } = await startApiProcess(env, await freePort()));
  await worldProjected(pool, world);
  await until(() => workers.output().includes('workers ready'), 'the workers process to start', 60_000, 100);
}, 180_000);

afterAll(async () => {
  await killAllStarted();
  await smtp?.close();
  await redis?.destroy();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Outcome {
  what: string;
  status: number;
  body: unknown;
}

async function closedTicket(): Promise<string> {
  const { ticketId } = await openVisibleTicket(base, world.admin, world.installationId);
  const tech = world.technicians[0]!;
  const take = await api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketId}`, { statut: 'en_cours', technicien_id: tech.id });
  if (take.status !== 200) throw new Error(`take → ${take.status}`);
  const close = await api(base, world.admin.token, 'PATCH', `/api/tickets/${ticketId}/close`, visitBody(`Constat ${ticketId}`));
  if (close.status !== 200) throw new Error(`close → ${close.status}`);
  return ticketId;
}

const reportOf = async (ticketId: string) =>
  (await pool.query<{ status: string; filename: string | null }>(`SELECT status, filename FROM rm.reports WHERE ticket_id = $1 AND intervention_id IS NULL`, [ticketId])).rows[0];
const acceptedFor = (email: string) => smtp.accepted.filter((mail) => mail.to.includes(email));

describe('Redis stopped for 60 seconds while users keep working', () => {
  it('keeps every command working, says degraded, and does the pending reports and e-mails once Redis is back', { timeout: 400_000 }, async () => {
    // Before the outage: a closed ticket whose report exists, so e-mails can be asked for during it.
    const first = await closedTicket();
    const pdf = await api(base, world.admin.token, 'POST', `/api/reports/${first}.pdf`, {});
    expect(pdf.status, JSON.stringify(pdf.body)).toBe(200);
    const downloadUrl = (pdf.body as { downloadUrl: string }).downloadUrl;
    expect((await api(base, null, 'GET', '/api/health')).body.status).toBe('ok');

    await redis.stop();
    const stoppedAt = Date.now();
    const outcomes: Outcome[] = [];
    const health: string[] = [];
    const closedDuringOutage: string[] = [];
    const emailed: string[] = [];
    let sequence = 0;
    let creationsAnsweredBeforeReadModel = 0;

    const record = async (what: string, send: () => Promise<{ status: number; body: unknown }>) => {
      const answer = await send();
      outcomes.push({ what, ...answer });
      return answer;
    };
    const user = async () => {
      while (Date.now() - stoppedAt < OUTAGE_MS) {
        const n = sequence++;
        const { ticketId, visibleAtOnce } = await openVisibleTicket(base, world.admin, world.installationId);
        outcomes.push({ what: 'open', status: 201, body: null });
        if (!visibleAtOnce) creationsAnsweredBeforeReadModel++;
        const tech = world.technicians[n % world.technicians.length]!;
        await record('take in charge', () => api(base, tech.token, 'PATCH', `/api/tickets/${ticketId}`, { statut: 'en_cours', technicien_id: tech.id }));
        if (closedDuringOutage.length < MAX_CLOSES) {
          const closed = await record('close', () => api(base, tech.token, 'PATCH', `/api/tickets/${ticketId}/close`, visitBody(`Constat ${n}`)));
          if (closed.status === 200) closedDuringOutage.push(ticketId);
        }
        if (emailed.length < MAX_EMAILS) {
          const email = `destinataire${n}@example.fr`;
          const asked = await record('send-email', () =>
            api(base, world.admin.token, 'POST', '/api/reports/send-email', { downloadUrl, recipients: [{ email, nom: 'Martin', prenom: `Destinataire ${n}` }] }),
          );
          if (asked.status === 200) emailed.push(email);
        }
        await record('list', () => api(base, tech.token, 'GET', '/api/tickets'));
        const probe = await api(base, null, 'GET', '/api/health');
        health.push(`${probe.status} ${(probe.body as { status: string }).status}`);
      }
    };
    await Promise.all(Array.from({ length: USERS }, user));
    // Nothing could be done meanwhile: no report of the outage rendered, no new e-mail sent.
    const reportsDoneDuringOutage = (await Promise.all(closedDuringOutage.map(reportOf))).filter((row) => row?.status === 'generated').length;
    const emailsSentDuringOutage = emailed.filter((email) => acceptedFor(email).length > 0).length;
    await redis.start();
    const restartedAt = Date.now();

    // Every command succeeded, and health said degraded (200) all along.
    const failed = outcomes.filter((o) => o.status < 200 || o.status >= 300);
    expect(failed.slice(0, 5), 'commands that failed during the outage').toEqual([]);
    // The Redis probe notices within its ping timeout: allow the very first probe to still say ok.
    expect(health.filter((h) => h !== '200 degraded').length, health.join(', ')).toBeLessThanOrEqual(1);
    expect(health.at(-1)).toBe('200 degraded');
    expect(closedDuringOutage.length).toBeGreaterThan(0);
    expect(emailed.length).toBeGreaterThan(0);

    // Once Redis is back: every report and every e-mail, once.
    for (const ticketId of closedDuringOutage) {
      await until(async () => (await reportOf(ticketId))?.status === 'generated', `the report of ${ticketId}`, 180_000, 200).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${workers.output()}`);
      });
    }
    for (const email of emailed) await until(() => acceptedFor(email).length > 0, `the e-mail to ${email}`, 120_000, 200);
    const drainedAfterMs = Date.now() - restartedAt;
    for (const email of emailed) expect(acceptedFor(email), email).toHaveLength(1);
    for (const ticketId of closedDuringOutage) {
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM es.events WHERE type = 'ReportGenerated' AND data->>'ticketId' = $1`,
        [ticketId],
      );
      expect(rows[0]!.n, ticketId).toBe(1);
    }
    await until(async () => (await api(base, null, 'GET', '/api/health')).body.status === 'ok', 'health to say ok again', 30_000, 200);
    expect(apiProcess.alive && workers.alive).toBe(true);

    const count = (what: string) => outcomes.filter((o) => o.what === what).length;
    recordFigures('redis-outage', {
      outageSeconds: OUTAGE_MS / 1000,
      users: USERS,
      requestsDuringOutage: outcomes.length,
      succeeded: outcomes.length - failed.length,
      failed: failed.length,
      perKind: { open: count('open'), takeInCharge: count('take in charge'), close: count('close'), sendEmail: count('send-email'), list: count('list') },
      creationsAnsweredBeforeReadModel,
      healthChecksDuringOutage: health.length,
      healthDegraded: health.filter((h) => h === '200 degraded').length,
      reportsPendingAtRedisReturn: closedDuringOutage.length - reportsDoneDuringOutage,
      emailsPendingAtRedisReturn: emailed.length - emailsSentDuringOutage,
      reportsDoneAfter: closedDuringOutage.length,
      emailsAcceptedBySmtpAfter: emailed.length,
      secondsToDrainAfterReturn: Math.round(drainedAfterMs / 1000),
    });
  });
});
