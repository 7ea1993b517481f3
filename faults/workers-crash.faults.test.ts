import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportStreamId } from '@fsm/contracts';
import { createBlobStore, deploymentKeyPrefix, type BlobStore, type PostgresEventStore, type RecordedEvent } from '@fsm/eventstore';
import { ProjectionRunner, readModelProjectors } from '@fsm/projections';
import { createQueues, type Queues } from '@fsm/workers';
import { appendAgence, appendClosedTicket, appendEmailRequests, appendTemplate, startSmtpCatcher, type SmtpCatcher } from '@fsm/workers/test-support';
import { recordFigures } from './support/figures.js';
import { startLogDatabase, type LogDatabase } from './support/log-database.js';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis.js';
import { killAllStarted, startProcess, type RoleProcess } from './support/processes.js';
import { sleep, until } from './support/wait.js';

/*
 * Issue 12, item 3 — crash safety of workers. The workers role (reactor,
 * render thread, queue workers: faults/support/workers-process.ts) runs as a
 * process of its own against a private Redis and an SMTP server run by the
 * test. It is killed with SIGKILL twice:
 *   1. mid-render: the render job is active, the PDF of a deliberately heavy
 *      agency template takes seconds, nothing is recorded yet;
 *   2. mid-send: both e-mails are on the wire, the SMTP server holds its
 *      answer to DATA, so neither is accepted when the process dies.
 * After each restart the job is taken over. Then: one ReportGenerated, one
 * PDF, one message per recipient at the SMTP server; and the reactor replayed
 * from position 0 (first with the queue remembering its jobs, then with the
 * completed jobs forgotten so every job runs again) adds none.
 */

const LOCK_MS = 2_000;
let database: LogDatabase;
let pool: pg.Pool;
let store: PostgresEventStore;
let runner: ProjectionRunner;
let redis: PrivateRedis;
let smtp: SmtpCatcher;
let queues: Queues;
let blobs: BlobStore;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  database = await startLogDatabase({ poolSize: 6, pollIntervalMs: 100 });
  ({ pool, store } = database);
  runner = new ProjectionRunner({ pool, store, projectors: readModelProjectors, standbyRetryMs: 200 });
  await runner.migrate();
  await runner.start();
  redis = await startPrivateRedis();
  smtp = await startSmtpCatcher();
  // The workers process's own queues: prefixed with this log's identity (issue 32, item 14).
  queues = createQueues(redis.url, await deploymentKeyPrefix(store));
  dataDir = await mkdtemp(join(tmpdir(), 'fsm-faults-workers-'));
  blobs = createBlobStore(join(dataDir, 'files'));
  env = { DATABASE_URL: database.db.url, REDIS_URL: redis.url, DATA_DIR: dataDir, SMTP_URL: smtp.url, LOCK_MS: String(LOCK_MS), LOG_LEVEL: 'warn', MAIL_FROM: 'Agence Lyon <rapports@agence.test>' };
}, 120_000);

afterAll(async () => {
  await killAllStarted();
  await queues?.close();
  await smtp?.close();
  await redis?.destroy();
  await runner?.stop();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function startWorkersProcess(): Promise<RoleProcess> {
  const child = startProcess('faults/support/workers-process.ts', env, 'workers');
  await until(() => child.output().includes('workers ready') || (child.alive ? undefined : Promise.reject(new Error(child.output()))), 'the workers process to start', 60_000, 100);
  return child;
}

async function reportEvents(reportId: string): Promise<RecordedEvent[]> {
  return store.readStream(reportStreamId(reportId)).catch(() => []);
}
const ofType = (events: RecordedEvent[], type: string) => events.filter((event) => event.type === type);
const acceptedFor = (email: string) => smtp.accepted.filter((mail) => mail.to.includes(email));
/** PDFs in the content-addressed file store (`files/<2 hex>/<sha256>.pdf`). */
const pdfFiles = async () => (await readdir(join(dataDir, 'files'), { recursive: true }).catch(() => [] as string[])).filter((name) => name.endsWith('.pdf'));


describe('a workers process killed mid-render and mid-send', () => {
  it('ends with one report and one e-mail per recipient, and a replay from 0 adds none', { timeout: 300_000 }, async () => {
    // A heavy agency template (600 table rows): its PDF takes seconds, so there is time to kill the renderer.
    const rows = Array.from({ length: 600 }, (_, i) => `<tr><td>Point ${i + 1}</td><td>Contrôle du détecteur {{ticket.num_chrono}}</td><td>Conforme</td></tr>`).join('');
    const templateId = await appendTemplate(store, `<h1>Rapport {{ticket.num_chrono}}</h1><p>{{client.nom}}</p><table>${rows}</table><p>{{signature.client}}</p>`);
    const agenceId = await appendAgence(store, { templateId });
    let workers = await startWorkersProcess();

    // --- 1. killed mid-render ------------------------------------------------
    const ticket = await appendClosedTicket(store, blobs, agenceId, 'LYO-2026-00777');
    const reportId = ticket.closedEventId;
    const renderJob = `report-${reportId}`;
    await until(async () => (await queues.get('reports').getJob(renderJob))?.isActive(), 'the render job to be active', 60_000, 20);
    await sleep(300 + Math.floor(Math.random() * 700)); // somewhere inside a render that takes seconds
    const beforeRenderKill = { generated: ofType(await reportEvents(reportId), 'ReportGenerated').length, pdfs: (await pdfFiles()).length, active: await (await queues.get('reports').getJob(renderJob))!.isActive() };
    await workers.kill();
    expect(beforeRenderKill, 'killed while rendering: job active, no PDF, no outcome').toEqual({ generated: 0, pdfs: 0, active: true });
    expect(ofType(await reportEvents(reportId), 'ReportGenerated')).toHaveLength(0);

    workers = await startWorkersProcess();
    await until(async () => ofType(await reportEvents(reportId), 'ReportGenerated').length > 0, 'the report after the restart', 90_000, 100);
    await until(async () => (await pool.query(`SELECT 1 FROM rm.reports WHERE id = $1 AND status = 'generated'`, [reportId])).rowCount === 1, 'the report in the read model');

    // --- 2. killed mid-send ----------------------------------------------------
    const recipients = ['gardien@example.fr', 'exploitant@example.fr', 'syndic@example.fr'];
    let refuse: (error: Error) => void = () => undefined;
    smtp.hold = new Promise<void>((_resolve, reject) => (refuse = reject));
    smtp.hold.catch(() => undefined);
    const receivedBefore = smtp.received;
    const requests = await appendEmailRequests(store, ticket, recipients);
    await until(() => smtp.received >= receivedBefore + recipients.length, 'every message to be on the wire', 60_000, 20);
    const sendingRows = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs.sent_mails WHERE status = 'sending'`);
    await workers.kill();
    smtp.hold = null;
    refuse(new Error('connexion perdue'));
    expect(sendingRows.rows[0]!.n, 'killed while sending: claimed, not marked sent').toBe(recipients.length);
    for (const email of recipients) expect(acceptedFor(email)).toHaveLength(0);

    workers = await startWorkersProcess();
    for (const email of recipients) await until(() => acceptedFor(email).length === 1, `the e-mail to ${email} after the restart`, 90_000, 100);
    await until(async () => ofType(await reportEvents(reportId), 'ReportEmailed').length === recipients.length, 'every e-mail recorded');

    // --- 3. the reactor replayed from position 0 ------------------------------
    const drained = async () => {
      const counts = await Promise.all((['reports', 'emails'] as const).map((name) => queues.get(name).getJobCounts('waiting', 'active', 'delayed', 'prioritized')));
      return counts.every((count) => Object.values(count).every((n) => n === 0));
    };
    const replays: string[] = [];
    for (const forget of [false, true]) {
      await workers.stop();
      if (forget) for (const name of ['reports', 'emails'] as const) await queues.get(name).clean(0, 10_000, 'completed');
      await pool.query('UPDATE jobs.reactor_checkpoints SET position = NULL');
      workers = await startWorkersProcess();
      // The replayed reactor has read the whole log again once its checkpoint is back at the head.
      const head = await store.headPosition();
      await until(async () => {
        const { rows: cp } = await pool.query<{ position: string | null }>('SELECT position FROM jobs.reactor_checkpoints');
        return cp.every((row) => row.position !== null && store.comparePositions(row.position, head!) >= 0);
      }, 'the reactor to replay the log', 60_000, 100);
      await until(drained, 'the queues to drain', 60_000, 100);
      replays.push(forget ? 'jobs forgotten' : 'jobs remembered');
    }
    await workers.stop();
    const completed = await queues.get('emails').getJobCounts('completed', 'failed');

    // --- what happened, counted at the source ------------------------------------
    const events = await reportEvents(reportId);
    expect(ofType(events, 'ReportGenerated')).toHaveLength(1);
    expect(ofType(events, 'ReportGenerationFailed')).toHaveLength(0);
    expect(await pdfFiles()).toHaveLength(1);
    for (const email of recipients) expect(acceptedFor(email), email).toHaveLength(1);
    expect(smtp.accepted).toHaveLength(recipients.length);
    for (const request of requests) {
      expect(events.filter((e) => e.type === 'ReportEmailed' && (e.data as { requestEventId: string }).requestEventId === request)).toHaveLength(1);
    }
    const sent = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs.sent_mails WHERE status = 'sent'`);
    expect(sent.rows[0]!.n).toBe(recipients.length);
    // After the second replay every e-mail job ran again — and found its e-mail already sent.
    expect(completed).toEqual({ completed: recipients.length, failed: 0 });

    recordFigures('workers-crash', {
      killsSurvived: 2,
      killPoints: ['mid-render', 'mid-send'],
      reportsGenerated: ofType(events, 'ReportGenerated').length,
      pdfFiles: (await pdfFiles()).length,
      recipients: recipients.length,
      emailsReceivedBySmtp: smtp.received - receivedBefore,
      emailsAcceptedBySmtp: smtp.accepted.length,
      reactorReplaysFromZero: replays,
      emailJobsRunAgainOnReplay: completed.completed,
    });
  });
});
