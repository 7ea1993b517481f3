import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv, reportEmailSubject, type Env, type ReportGeneratedData } from '@fsm/contracts';
import type { BlobStore, EventStore } from '@fsm/eventstore';
import type { ProjectionRunner } from '@fsm/projections';
import { createQueues, type Queues } from '../src/queues.js';
import { Reactor } from '../src/reactor.js';
import { RENDER_REPORT_JOB, reportsProcessor } from '../src/reports/report-processor.js';
import { createThreadRenderer } from '../src/reports/report-renderer.js';
import { reactions, startWorkers, type RunningWorkers } from '../src/start-workers.js';
import { pdfText } from './support/pdf-text.js';
import { startSmtpCatcher, type SmtpCatcher } from './support/smtp-catcher.js';
import { TEST_REDIS_URL, obliterateQueues, silentLogger } from './support/test-workers.js';
import { openReadModelWorld, reportEvents, waitFor, type ReadModelWorld } from './support/read-model-world.js';
import { appendAgence, appendClientWithSite, appendClosedTicket, appendEmailRequests, appendTemplate, type ClosedTicket } from './support/ticket-fixture.js';

/*
 * The whole side-effect path on real Postgres, Redis and an SMTP server run by
 * the test: a close → the reactor → the render job → ReportGenerated; e-mail
 * requests → one message per recipient with the PDF; a worker process killed
 * in the middle of sending, the reactor replayed from position 0 and the jobs
 * run again → still one report and one e-mail per recipient, counted at the
 * SMTP server.
 */

let world: ReadModelWorld;
let pool: pg.Pool;
let store: EventStore & { migrate(): Promise<void> };
let runner: ProjectionRunner;
let blobs: BlobStore;
let smtp: SmtpCatcher;
let env: Env;
const prefixes: string[] = [];

beforeAll(async () => {
  world = await openReadModelWorld('workers_reports');
  ({ pool, store, runner, blobs } = world);
  smtp = await startSmtpCatcher();
  env = parseEnv({ DATABASE_URL: world.db.url, REDIS_URL: TEST_REDIS_URL, DATA_DIR: world.dataDir, SMTP_URL: smtp.url, NODE_ENV: 'test', LOG_LEVEL: 'silent', MAIL_FROM: 'Agence Lyon <rapports@agence.test>' });
});

afterAll(async () => {
  for (const prefix of prefixes) {
    const queues = createQueues(TEST_REDIS_URL, prefix);
    await obliterateQueues(queues);
    await queues.close();
  }
  await smtp?.close();
  await runner?.stop();
  await world?.close();
});

function newPrefix(): string {
  const prefix = `test-reports-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  return prefix;
}


const generatedRow = (reportId: string) => async () =>
  (await pool.query<{ status: string }>(`SELECT status FROM rm.reports WHERE id = $1 AND status = 'generated'`, [reportId])).rows[0];


const acceptedFor = (email: string) => smtp.accepted.filter((mail) => mail.to.includes(email));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('reports and e-mails through the reactor', () => {
  let workers: RunningWorkers;
  let ticket: ClosedTicket;
  const sent = ['claire@example.fr', 'syndic@example.fr'];
  const refused = 'inconnu@example.fr';

  beforeAll(async () => {
    workers = await startWorkers({ env, pool, store, logger: silentLogger, queuePrefix: newPrefix(), reactorName: 'reactor-a', backoffMs: 100 });
  });
  afterAll(async () => workers?.close());

  it('renders the report of a close with the agency template, and records its SHA-256', async () => {
    const templateId = await appendTemplate(
      store,
      '<h1>Rapport {{ticket.num_chrono}}</h1><p>{{client.nom}} – {{site.nom}} – {{installation.type}}</p><p>Arrivée {{ticket.arrive_at}}, départ {{ticket.clos_at}}</p><p>[{{ticket.inconnu}}]</p><p>{{signature.client}}</p><p>{{signature.technicien}}</p>',
    );
    const agenceId = await appendAgence(store, { templateId });
    ticket = await appendClosedTicket(store, blobs, agenceId, 'LYO-2026-00042');
    await waitFor(generatedRow(ticket.closedEventId));

    const events = await reportEvents(store, ticket.closedEventId);
    const generated = events.filter((event) => event.type === 'ReportGenerated');
    expect(generated).toHaveLength(1);
    const data = generated[0]!.data as ReportGeneratedData;
    expect(data.filename).toBe(`rapport-LYO-2026-00042-${ticket.closedEventId.replace(/-/g, '').slice(0, 8)}.pdf`);
    expect(data.templateId).toBe(templateId);
    expect(data.unknownVariables).toEqual(['ticket.inconnu']);
    const pdf = await blobs.read(data.blobRef);
    expect(sha256(pdf)).toBe(data.sha256);
    const text = pdfText(pdf);
    expect(text).toContain('Rapport LYO-2026-00042');
    expect(text).toContain('Clinique du Parc – Bâtiment A – Sécurité incendie');
    expect(text).toContain('Arrivée 02/03/2026 à 10:00, départ 02/03/2026 à 11:05');
    expect(text).toContain('[]');
    expect(text).toContain('Signé par : Claire Martin');
    expect(text).toContain('Signé par : Paul Durand');
    expect(text).not.toContain('{{');
  });

  it('sends one e-mail per recipient with the PDF attached and a French subject; a refused address fails once, unretried', async () => {
    smtp.rejectRecipients.add(refused);
    const [, , refusedRequest] = await appendEmailRequests(store, ticket, [...sent, refused]);
    for (const email of sent) await waitFor(async () => acceptedFor(email).length === 1);
    await waitFor(async () => (await reportEvents(store, ticket.closedEventId)).some((event) => event.type === 'ReportEmailFailed'));

    const pdf = await blobs.read(((await reportEvents(store, ticket.closedEventId)).find((event) => event.type === 'ReportGenerated')!.data as ReportGeneratedData).blobRef);
    for (const email of sent) {
      const [mail] = acceptedFor(email);
      expect(mail!.to).toEqual([email]);
      expect(mail!.from).toBe('rapports@agence.test');
      expect(mail!.subject).toBe(reportEmailSubject({ ticketNumber: 'LYO-2026-00042' }));
      expect(mail!.subject).toBe("Rapport d'intervention – ticket LYO-2026-00042");
      expect(mail!.raw).toContain('Bonjour Claire Martin');
      expect(mail!.attachments).toHaveLength(1);
      expect(mail!.attachments[0]!.filename).toMatch(/^rapport-LYO-2026-00042-[0-9a-f]{8}\.pdf$/);
      expect(mail!.attachments[0]!.contentType).toBe('application/pdf');
      expect(sha256(mail!.attachments[0]!.content)).toBe(sha256(pdf));
    }
    expect(acceptedFor(refused)).toHaveLength(0);
    const failed = (await reportEvents(store, ticket.closedEventId)).filter((event) => event.type === 'ReportEmailFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toMatchObject({ recipient: refused, permanent: true, requestEventId: refusedRequest });
    const row = await waitFor(async () =>
      (await pool.query(`SELECT status, permanent FROM rm.report_emails WHERE request_event_id = $1 AND status = 'failed'`, [refusedRequest])).rows[0],
    );
    expect(row).toEqual({ status: 'failed', permanent: true });
    await waitFor(async () => (await pool.query(`SELECT count(*)::int AS n FROM rm.report_emails WHERE status = 'sent'`)).rows[0].n === 2);
  });

  it('retries a temporary refusal (451) with backoff and sends it once', async () => {
    const email = 'astreinte@example.fr';
    smtp.deferRecipients.set(email, 2);
    const [request] = await appendEmailRequests(store, ticket, [email]);
    await waitFor(async () => acceptedFor(email).length === 1);
    expect(smtp.deferRecipients.get(email)).toBe(0);
    await waitFor(async () =>
      (await reportEvents(store, ticket.closedEventId)).some((event) => event.type === 'ReportEmailed' && (event.data as { requestEventId: string }).requestEventId === request),
    );
    const events = await reportEvents(store, ticket.closedEventId);
    expect(events.filter((event) => event.type === 'ReportEmailFailed' && (event.data as { requestEventId: string }).requestEventId === request)).toHaveLength(0);
    const { rows } = await pool.query(`SELECT status, attempts FROM jobs.sent_mails WHERE request_event_id = $1`, [request]);
    expect(rows).toEqual([{ status: 'sent', attempts: 3 }]);
  });
});

describe('a worker killed in the middle of a job', () => {
  let child: ChildProcess | undefined;
  let queues: Queues;
  let replacement: RunningWorkers | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await replacement?.close();
    await queues?.close();
  });

  it('has its job retried, and a replay from position 0 adds no report and no e-mail', { timeout: 120_000 }, async () => {
    const prefix = newPrefix();
    queues = createQueues(TEST_REDIS_URL, prefix);
    const lockMs = 1500;
    const script = fileURLToPath(new URL('./support/worker-process.ts', import.meta.url));
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: { ...process.env, DATABASE_URL: world.db.url, REDIS_URL: TEST_REDIS_URL, DATA_DIR: world.dataDir, SMTP_URL: smtp.url, QUEUE_PREFIX: prefix, LOCK_MS: String(lockMs), NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(async () => output.includes('ready'), 60_000).catch(() => {
      throw new Error(`worker process did not start:\n${output}`);
    });

    // A reactor of its own, from position 0: it also re-enqueues the first describe's jobs, which must find their effects done.
    const reactorName = `reactor-kill-${randomUUID().slice(0, 6)}`;
    const startReactor = async () => {
      const reactor = new Reactor({ pool, store, reactions, enqueue: queues.enqueue, name: reactorName });
      await reactor.migrate();
      await reactor.start();
      return reactor;
    };
    let reactor = await startReactor();

    const agenceId = await appendAgence(store, { nom: 'Agence Villeurbanne' });
    const ticket = await appendClosedTicket(store, blobs, agenceId);
    await waitFor(generatedRow(ticket.closedEventId));

    // Hold the SMTP server's answer to DATA: the message is on the wire, not yet accepted, when the worker dies.
    const recipients = ['gardien@example.fr', 'exploitant@example.fr'];
    let refuse: (error: Error) => void = () => undefined;
    smtp.hold = new Promise<void>((_resolve, reject) => (refuse = reject));
    smtp.hold.catch(() => undefined);
    const receivedBefore = smtp.received;
    await appendEmailRequests(store, ticket, recipients);
    await waitFor(async () => smtp.received >= receivedBefore + recipients.length);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    smtp.hold = null;
    refuse(new Error('connection lost'));
    for (const email of recipients) expect(acceptedFor(email)).toHaveLength(0);

    // A new worker finds the stalled jobs (their lock expired) and runs them again.
    replacement = await startWorkers({ env, pool, store, logger: silentLogger, queuePrefix: prefix, reactor: false, lockDurationMs: lockMs, stalledIntervalMs: 500, backoffMs: 100 });
    for (const email of recipients) await waitFor(async () => acceptedFor(email).length === 1, 60_000);

    // Replay from position 0, first with the queue remembering its jobs (none added), then with the jobs forgotten (all run again).
    const drained = async () => {
      const counts = await Promise.all(['reports', 'emails'].map((name) => queues.get(name as 'reports').getJobCounts('waiting', 'active', 'delayed', 'prioritized')));
      return counts.every((count) => Object.values(count).every((n) => n === 0));
    };
    for (const forget of [false, true]) {
      await reactor.stop();
      if (forget) for (const name of ['reports', 'emails'] as const) await queues.get(name).clean(0, 10_000, 'completed');
      await pool.query('UPDATE jobs.reactor_checkpoints SET position = NULL WHERE name = $1', [reactorName]);
      reactor = await startReactor();
      await waitFor(async () => reactor.hasCaughtUp);
      await waitFor(drained);
    }
    await reactor.stop();
    // After the second replay every e-mail job ran again (5 sent ones; the refused one stays failed, unretried).
    expect(await queues.get('emails').getJobCounts('completed', 'failed')).toEqual({ completed: 5, failed: 1 });
    expect(await queues.get('reports').getJobCounts('completed', 'failed')).toEqual({ completed: 2, failed: 0 });

    // One message per recipient at the SMTP server, across both describes.
    for (const email of [...recipients, 'claire@example.fr', 'syndic@example.fr', 'astreinte@example.fr']) expect(acceptedFor(email)).toHaveLength(1);
    // One report per visit, one outcome per e-mail request, in the log.
    const { rows } = await pool.query<{ stream_id: string }>(`SELECT DISTINCT stream_id FROM es.events WHERE stream_id LIKE 'report-%'`);
    expect(rows.length).toBe(2);
    for (const { stream_id } of rows) {
      const events = await store.readStream(stream_id);
      expect(events.filter((event) => event.type === 'ReportGenerated')).toHaveLength(1);
      const requests = events.filter((event) => event.type === 'ReportEmailRequested').map((event) => event.id);
      for (const request of requests) {
        const outcomes = events.filter(
          (event) => (event.type === 'ReportEmailed' || event.type === 'ReportEmailFailed') && (event.data as { requestEventId: string }).requestEventId === request,
        );
        expect(outcomes).toHaveLength(1);
      }
    }
    const sentRows = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs.sent_mails WHERE status = 'sent'`);
    expect(sentRows.rows[0]!.n).toBe(5);
    // The outbox is unused when SMTP_URL is set.
    await expect(readFile(join(world.dataDir, 'outbox'))).rejects.toThrow();
  });
});

/*
 * Issue 20: right after a rebuild's reset the worker waited 5 s, then
 * rendered with what the read models held: no agency template, no agency
 * block, an empty client address, no site contact, and a generated report is
 * never rendered again. Here the projection runner is held while the visits
 * are recorded: the jobs must go back to the delayed set (no attempt spent,
 * nothing rendered), then render everything once the runner catches up.
 */
describe('a report started while the read models are behind', () => {
  let workers: RunningWorkers | undefined;
  let queues: Queues | undefined;
  afterAll(async () => {
    await workers?.close();
    await queues?.close();
  });

  it('is not rendered until they reach its visit, then prints the template, agency block, client address and contact', { timeout: 120_000 }, async () => {
    const prefix = newPrefix();
    queues = createQueues(TEST_REDIS_URL, prefix);
    // The first describe's reactor name: its checkpoint is at the head, so only this test's visits are enqueued.
    workers = await startWorkers({ env, pool, store, logger: silentLogger, queuePrefix: prefix, reactorName: 'reactor-a', backoffMs: 100 });
    await runner.stop();

    const templateId = await appendTemplate(
      store,
      '<h1>Rapport agence {{ticket.num_chrono}}</h1><p>Client : {{client.nom}}, {{client.adresse}}, {{client.code_postale}} {{client.ville}}</p><p>Contact du site : {{site.interlocuteur_princ}}</p>',
      'Modèle Lyon',
    );
    const withTemplate = await appendAgence(store, { nom: 'Agence Lyon Part-Dieu', templateId });
    const withoutTemplate = await appendAgence(store, { nom: 'Agence Vienne' });
    const templated = await appendClosedTicket(store, blobs, withTemplate, 'LYO-2026-07001', {}, await appendClientWithSite(store, withTemplate));
    const builtIn = await appendClosedTicket(store, blobs, withoutTemplate, 'VIE-2026-07002', {}, await appendClientWithSite(store, withoutTemplate, { prenom: 'Hugo', nom: 'Bernard' }));

    // Each job ran, found the read models behind, and went back to the delayed set without spending an attempt.
    for (const ticket of [templated, builtIn]) {
      const job = await waitFor(async () => {
        const found = await queues!.get('reports').getJob(`report-${ticket.closedEventId}`);
        return found && found.attemptsStarted >= 1 && (await found.getState()) === 'delayed' ? found : null;
      }, 60_000);
      expect(job.attemptsMade).toBe(0);
      expect((await reportEvents(store, ticket.closedEventId)).map((event) => event.type)).toEqual([]);
    }

    runner = world.newRunner();
    await runner.start();
    const generated = async (ticket: ClosedTicket) => {
      const events = await waitFor(async () => {
        const found = await reportEvents(store, ticket.closedEventId);
        return found.some((event) => event.type === 'ReportGenerated') ? found : null;
      }, 90_000);
      expect(events.map((event) => event.type)).toEqual(['ReportGenerated']);
      const data = events[0]!.data as ReportGeneratedData;
      return { data, text: pdfText(await blobs.read(data.blobRef)) };
    };

    const fromTemplate = await generated(templated);
    expect(fromTemplate.data.templateId).toBe(templateId);
    expect(fromTemplate.data.templateFallback).toBeNull();
    expect(fromTemplate.text).toContain('Rapport agence LYO-2026-07001');
    expect(fromTemplate.text).toContain('Client : Clinique du Parc, 8 avenue des Tilleuls, 69100 Villeurbanne');
    expect(fromTemplate.text).toContain('Contact du site : Claire Martin');

    const fromLayout = await generated(builtIn);
    expect(fromLayout.data.templateId).toBeNull();
    for (const line of ['Agence Vienne', '12 rue des Pompiers', '69003 Lyon', 'Tél. 04 78 00 00 00', '8 avenue des Tilleuls', '69100 Villeurbanne', 'Interlocuteur : Hugo Bernard']) {
      expect(fromLayout.text).toContain(line);
    }
  });

  it('past its patience, spends its attempts and records ReportGenerationFailed, never a report with gaps', { timeout: 60_000 }, async () => {
    // Without the first test's reactor and workers: this visit's only job is the one added below.
    await workers?.close();
    workers = undefined;
    const prefix = newPrefix();
    const behindQueues = createQueues(TEST_REDIS_URL, prefix);
    const renderer = createThreadRenderer();
    const worker = new Worker(
      'reports',
      reportsProcessor({ pool, store, blobs, renderer, clock: () => new Date(), readModelsPatienceMs: 0, readModelsWaitMs: 0 }),
      { connection: { url: TEST_REDIS_URL, maxRetriesPerRequest: null }, prefix },
    );
    await runner.stop();
    try {
      const agenceId = await appendAgence(store, { nom: 'Agence Grenoble' });
      const ticket = await appendClosedTicket(store, blobs, agenceId, 'GRE-2026-07003', {}, await appendClientWithSite(store, agenceId));
      const jobId = `report-${ticket.closedEventId}`;
      await behindQueues
        .get('reports')
        .add(RENDER_REPORT_JOB, { reportId: ticket.closedEventId, ticketId: ticket.ticketId, interventionId: null }, { jobId, attempts: 2, backoff: { type: 'fixed', delay: 50 } });
      const job = await waitFor(async () => {
        const found = await behindQueues.get('reports').getJob(jobId);
        return found && (await found.getState()) === 'failed' ? found : null;
      });
      expect(job.attemptsMade).toBe(2);
      const events = await reportEvents(store, ticket.closedEventId);
      expect(events.map((event) => event.type)).toEqual(['ReportGenerationFailed']);
      expect((events[0]!.data as { error: string }).error).toContain('read models have not reached its request');
    } finally {
      await worker.close();
      await renderer.close();
      await behindQueues.close();
      runner = world.newRunner();
      await runner.start();
    }
  });
});
