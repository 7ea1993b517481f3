import { createHash, randomUUID } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATS_CSV_HEADER, exportStreamId, type ExportCompletedData, type ExportRequestedData } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import { createQueues, startWorkers, type Queues, type RunningWorkers } from '@fsm/workers';
import { PRODUCE_EXPORT_JOB, produceExport } from '@fsm/workers/test-support';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

/*
 * Worker-made CSV exports (issue 5 item 6, docs/exports.md) on the real app with
 * the real workers (reactor, BullMQ on Redis with a prefix of this file's own).
 * Tickets go straight into the read models, as in the stats volume test: this
 * file is about how the export reads and writes them.
 */

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test-api-exports-${randomUUID().slice(0, 8)}`;
const now = new Date('2025-07-01T10:00:00.000Z');
const ROWS = 3_000;
const STATS_QUERY = { from: '2025-01-01', to: '2025-07-01' };

let h: ApiHarness;
let workers: RunningWorkers;
let queues: Queues;
let queueEvents: QueueEvents;
const progressByJob = new Map<string, number[]>();
let agenceA: string;
let agenceB: string;
let statsA: TestUser; // technicien_plus: tickets.stats, own agency
let statsB: TestUser;
let global: TestUser; // admin_plus: tickets.stats-global, qrcodes.manage everywhere
let adminA: TestUser; // qrcodes.manage for agency A
let adminB: TestUser;
let techA: TestUser; // no stats, no QR permission

async function seedTickets(agence: string, count: number, tag: string): Promise<void> {
  await h.pool.query(
    `INSERT INTO rm.tickets (id, num_chrono, source, statut, urgent, agence_id, client_id, client_nom, site_id, site_nom, site_adresse,
       site_code_postal, site_ville, installation_id, installation_nom, astreinte, probleme, created_at, delai,
       demandeur_prenom, demandeur_nom, demandeur_email, demandeur_telephone, last_revision)
     SELECT gen_random_uuid(), $3 || '-' || lpad(i::text, 6, '0'), 'manual', 'ouvert', false, $1, gen_random_uuid(),
       CASE WHEN i % 5 = 0 THEN 'Client; "spécial" ' || i ELSE 'Client ' || i END, gen_random_uuid(),
       'Site', '1 rue', '69001', 'Lyon', gen_random_uuid(), 'SSI', 0, 'Panne',
       $2::timestamptz - make_interval(secs => (i / 7) * 1700), 4, 'P', 'N', 'p@n.fr', '06', 0
     FROM generate_series(1, $4::int) AS i`,
    [agence, now, tag, count],
  );
  await h.pool.query(
    `INSERT INTO rm.ticket_sla (ticket_id, agence_id, created_at, delai, sla_deadline, last_revision)
     SELECT id, agence_id, created_at, delai, created_at + interval '4 hours', 0 FROM rm.tickets WHERE agence_id = $1`,
    [agence],
  );
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function streamEvents(exportId: string): Promise<RecordedEvent[]> {
  return h.store.readStream(exportStreamId(exportId)).catch(() => []);
}

async function requestExport(user: TestUser, payload: object) {
  return h.request(user, { method: 'POST', url: '/api/exports', payload });
}

/** Polls the status route until done, returning every answer seen. */
async function waitDone(user: TestUser, id: string): Promise<{ status: string; progress: number; rows: number; downloadUrl: string | null }[]> {
  const seen: { status: string; progress: number; rows: number; downloadUrl: string | null }[] = [];
  await until(async () => {
    const res = await h.request(user, { method: 'GET', url: `/api/exports/${id}` });
    expect(res.statusCode).toBe(200);
    seen.push(res.json());
    return res.json().status === 'done' || res.json().status === 'failed';
  });
  return seen;
}

beforeAll(async () => {
  h = await createApiHarness('api_exports');
  h.setNow(now);
  workers = await startWorkers({
    env: { ...h.deps.env, REDIS_URL: redisUrl },
    pool: h.pool,
    store: h.store,
    blobs: h.deps.blobs,
    logger: pino({ level: 'silent' }),
    queuePrefix: prefix,
    backoffMs: 100,
  });
  queues = createQueues(redisUrl, prefix);
  queueEvents = new QueueEvents('exports', { connection: { url: redisUrl, maxRetriesPerRequest: null }, prefix });
  queueEvents.on('progress', ({ jobId, data }) => {
    if (typeof data === 'number') progressByJob.set(jobId, [...(progressByJob.get(jobId) ?? []), data]);
  });
  await queueEvents.waitUntilReady();
  agenceA = await h.createAgence('Agence Lyon');
  agenceB = await h.createAgence('Agence Grenoble');
  await seedTickets(agenceA, ROWS, 'LYO');
  await seedTickets(agenceB, 40, 'GRE');
  statsA = await h.createUser({ role: 'technicien_plus', agenceId: agenceA });
  statsB = await h.createUser({ role: 'technicien_plus', agenceId: agenceB });
  global = await h.createUser({ role: 'admin_plus', agenceId: agenceB });
  adminA = await h.createUser({ role: 'admin', agenceId: agenceA });
  adminB = await h.createUser({ role: 'admin', agenceId: agenceB });
  techA = await h.createUser({ role: 'technicien', agenceId: agenceA });
}, 120_000);

afterAll(async () => {
  await queueEvents?.close();
  await workers?.close();
  if (queues) {
    for (const name of ['reports', 'emails', 'exports'] as const) await queues.get(name).obliterate({ force: true }).catch(() => undefined);
    await queues.close();
  }
  await h?.close();
});

describe('statistics export', () => {
  let exportId: string;
  let downloadUrl: string;

  it(`writes ${ROWS.toLocaleString('en')} rows in the workers, with a progress value that goes up`, async () => {
    const res = await requestExport(statsA, { kind: 'stats-tickets', filters: STATS_QUERY });
    expect(res.statusCode).toBe(202);
    const body = res.json();
    exportId = body.id;
    expect(body).toMatchObject({ kind: 'stats-tickets', status: 'pending', progress: 0, rows: 0, filename: 'stats_tickets_2025-07-01.csv', downloadUrl: null });
    expect(res.headers.location).toBe(`/api/exports/${exportId}`);

    const seen = await waitDone(statsA, exportId);
    const last = seen.at(-1)!;
    // The link carries a short-lived token bound to this export, never the session token (issue 17).
    expect(last).toMatchObject({ status: 'done', progress: 100, rows: ROWS, downloadUrl: expect.stringMatching(new RegExp(`^/api/exports/${exportId}/download\\?token=[\\w.-]+$`)) });
    expect(last.downloadUrl).not.toContain(statsA.token);
    downloadUrl = last.downloadUrl!;
    // What the status route said never went backwards.
    const order = { pending: 0, running: 1, done: 2, failed: 2 } as Record<string, number>;
    for (let k = 1; k < seen.length; k++) {
      expect(order[seen[k]!.status]!).toBeGreaterThanOrEqual(order[seen[k - 1]!.status]!);
      expect(seen[k]!.progress).toBeGreaterThanOrEqual(seen[k - 1]!.progress);
    }

    // The job's own progress (job.updateProgress), as BullMQ publishes it.
    await until(() => (progressByJob.get(`export-${exportId}`) ?? []).includes(100));
    const values = progressByJob.get(`export-${exportId}`)!;
    expect(values[0]).toBe(0);
    expect(values.at(-1)).toBe(100);
    expect(values.length).toBeGreaterThanOrEqual(10);
    for (let k = 1; k < values.length; k++) expect(values[k]!).toBeGreaterThan(values[k - 1]!);
    expect(values.filter((v) => v > 0 && v < 100).length).toBeGreaterThanOrEqual(8);
  }, 60_000);

  it('is the file the inline route gives for the same filters, with its SHA-256 in ExportCompleted', async () => {
    const inline = await h.request(statsA, { method: 'GET', url: `/api/stats/tickets.csv?from=${STATS_QUERY.from}&to=${STATS_QUERY.to}` });
    expect(inline.statusCode).toBe(200);
    const file = await h.request(null, { method: 'GET', url: downloadUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="stats_tickets_2025-07-01.csv"');
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.rawPayload.equals(inline.rawPayload)).toBe(true);
    const lines = file.rawPayload.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe(STATS_CSV_HEADER.join(';'));
    expect(lines).toHaveLength(ROWS + 2);
    expect(lines.some((line) => line.includes('"Client; ""spécial"" 5"'))).toBe(true);

    const events = await streamEvents(exportId);
    expect(events.map((event) => event.type)).toEqual(['ExportRequested', 'ExportCompleted']);
    const done = events[1]!.data as ExportCompletedData;
    expect(done).toMatchObject({ rows: ROWS, bytes: file.rawPayload.length, sha256: createHash('sha256').update(file.rawPayload).digest('hex') });
    const requested = events[0]!.data as ExportRequestedData;
    expect(requested).toMatchObject({ scope: [agenceA], filters: STATS_QUERY, asOf: now.toISOString() });
    // The bearer header works too.
    expect((await h.request(statsA, { method: 'GET', url: `/api/exports/${exportId}/download` })).statusCode).toBe(200);
  });

  it('filters by métier and agency as the inline route does (global statistics, one agency chosen)', async () => {
    const res = await requestExport(global, { kind: 'stats-tickets', filters: { ...STATS_QUERY, agence_id: agenceB } });
    expect(res.statusCode).toBe(202);
    const { id } = res.json();
    const done = (await waitDone(global, id)).at(-1)!;
    expect(done).toMatchObject({ status: 'done', rows: 40 });
    const inline = await h.request(global, { method: 'GET', url: `/api/stats/tickets.csv?from=${STATS_QUERY.from}&to=${STATS_QUERY.to}&agence_id=${agenceB}` });
    const file = await h.request(null, { method: 'GET', url: done.downloadUrl! });
    expect(file.rawPayload.equals(inline.rawPayload)).toBe(true);
    // The default window (29 days before today through today) when no dates are sent.
    const windowed = await requestExport(statsA, { kind: 'stats-tickets' });
    expect((windowed.json() as { id: string }).id).toBeTruthy();
    const events = await streamEvents(windowed.json().id);
    expect((events[0]!.data as ExportRequestedData).filters).toEqual({ from: '2025-06-02', to: '2025-07-01' });
  });

  it('enforces permissions (403) and scope (404)', async () => {
    // No statistics permission: neither asking nor reading.
    expect((await requestExport(techA, { kind: 'stats-tickets', filters: STATS_QUERY })).statusCode).toBe(403);
    expect((await h.request(techA, { method: 'GET', url: `/api/exports/${exportId}` })).statusCode).toBe(403);
    expect((await h.request(techA, { method: 'GET', url: `/api/exports/${exportId}/download` })).statusCode).toBe(403);
    // Own agency only: another agency asked for is refused, as on the inline route.
    const forged = await requestExport(statsA, { kind: 'stats-tickets', filters: { ...STATS_QUERY, agence_id: agenceB } });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error).toBe('Accès refusé.');
    // Another agency's export does not exist for them.
    expect((await h.request(statsB, { method: 'GET', url: `/api/exports/${exportId}` })).statusCode).toBe(404);
    const outside = await h.request(statsB, { method: 'GET', url: `/api/exports/${exportId}/download` });
    expect(outside.statusCode).toBe(404);
    expect(outside.json().error).toBe('Export introuvable.');
    // Global statistics see every agency's.
    expect((await h.request(global, { method: 'GET', url: `/api/exports/${exportId}` })).statusCode).toBe(200);
    // Unknown id, no token, bad token, bad id.
    expect((await h.request(statsA, { method: 'GET', url: `/api/exports/${randomUUID()}` })).statusCode).toBe(404);
    expect((await h.request(null, { method: 'GET', url: `/api/exports/${exportId}` })).statusCode).toBe(401);
    expect((await h.request(null, { method: 'GET', url: `/api/exports/${exportId}/download` })).statusCode).toBe(401);
    expect((await h.request(null, { method: 'GET', url: `/api/exports/${exportId}/download?token=nope` })).statusCode).toBe(401);
    // A session token opens nothing from a URL; a link opens its own export only.
    const sessionInUrl = await h.request(null, { method: 'GET', url: `/api/exports/${exportId}/download?token=${statsA.token}` });
    expect(sessionInUrl.statusCode).toBe(401);
    expect(sessionInUrl.json().error).toBe('Lien de téléchargement invalide.');
    const linkToken = new URL(downloadUrl, 'http://x').searchParams.get('token')!;
    expect((await h.request(null, { method: 'GET', url: `/api/exports/${randomUUID()}/download?token=${linkToken}` })).statusCode).toBe(403);
    expect((await h.request(statsA, { method: 'GET', url: '/api/exports/..%2F..%2Fetc' })).statusCode).toBe(400);
    expect((await requestExport(statsA, { kind: 'pdf' })).statusCode).toBe(400);
    expect((await requestExport(statsA, { kind: 'stats-tickets', filters: { from: '2025-07-01', to: '2025-01-01' } })).statusCode).toBe(400);
  });
});

describe('status while waiting, running, failed', () => {
  it('says pending, then running with the job progress, and failed with no file', async () => {
    const exportsQueue = queues.get('exports');
    await exportsQueue.pause();
    try {
      const res = await requestExport(statsA, { kind: 'stats-tickets', filters: STATS_QUERY });
      const { id } = res.json();
      const jobId = `export-${id}`;
      await until(async () => (await exportsQueue.getJob(jobId)) !== undefined);
      const status = async () => (await h.request(statsA, { method: 'GET', url: `/api/exports/${id}` })).json();
      expect(await status()).toMatchObject({ status: 'pending', progress: 0, rows: 0, downloadUrl: null });
      const early = await h.request(statsA, { method: 'GET', url: `/api/exports/${id}/download` });
      expect(early.statusCode).toBe(409);
      expect(early.json().error).toBe("L'export n'est pas encore prêt.");
      // What a running job writes (jobs.export_progress), as the exporter does after each slice.
      await h.pool.query('INSERT INTO jobs.export_progress (export_id, progress, rows, total) VALUES ($1, 42, 1260, 3000)', [id]);
      expect(await status()).toMatchObject({ status: 'running', progress: 42, rows: 1260 });
      // The job gives up (last attempt): ExportFailed.
      await (await exportsQueue.getJob(jobId))!.remove();
      await h.store.appendToStream(
        exportStreamId(id),
        [{ id: randomUUID(), type: 'ExportFailed', data: { exportId: id, kind: 'stats-tickets', error: 'boom', failedAt: now.toISOString() }, metadata: { userId: null, userName: 'workers', correlationId: id, causationId: id } }],
        { expectedRevision: 'any' },
      );
      expect(await status()).toMatchObject({ status: 'failed', downloadUrl: null, error: "L'export a échoué." });
      expect((await h.request(statsA, { method: 'GET', url: `/api/exports/${id}/download` })).statusCode).toBe(409);
    } finally {
      await exportsQueue.resume();
    }
  });
});

describe('QR codes export', () => {
  it('is the file POST /api/qrcodes/export gives; other agencies and other roles get 404 / 403', async () => {
    const batch = await h.request(adminA, { method: 'POST', url: '/api/qrcodes/batch', payload: { count: 30 } });
    expect(batch.statusCode).toBe(201);
    const res = await requestExport(adminA, { kind: 'qrcodes' });
    expect(res.statusCode).toBe(202);
    const { id, filename } = res.json();
    expect(filename).toBe('qrcodes_2025-07-01.csv');
    const done = (await waitDone(adminA, id)).at(-1)!;
    expect(done).toMatchObject({ status: 'done', progress: 100, rows: 30 });
    const inline = await h.request(adminA, { method: 'POST', url: '/api/qrcodes/export' });
    const file = await h.request(null, { method: 'GET', url: done.downloadUrl! });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="qrcodes_2025-07-01.csv"');
    expect(file.rawPayload.equals(inline.rawPayload)).toBe(true);
    expect(file.rawPayload.toString('utf8').split('\r\n')).toHaveLength(30 + 2);

    expect((await h.request(adminB, { method: 'GET', url: `/api/exports/${id}` })).statusCode).toBe(404);
    expect((await h.request(adminB, { method: 'GET', url: `/api/exports/${id}/download` })).statusCode).toBe(404);
    expect((await h.request(statsA, { method: 'GET', url: `/api/exports/${id}` })).statusCode).toBe(403);
    expect((await requestExport(statsA, { kind: 'qrcodes' })).statusCode).toBe(403);
    expect((await requestExport(adminA, { kind: 'qrcodes', filters: { agence_id: agenceB } })).statusCode).toBe(403);
    // admin_plus names the agency.
    const plus = await requestExport(global, { kind: 'qrcodes', filters: { agence_id: agenceA } });
    expect(plus.statusCode).toBe(202);
    expect((await waitDone(global, plus.json().id)).at(-1)).toMatchObject({ status: 'done', rows: 30 });
    expect((await h.request(global, { method: 'GET', url: `/api/exports/${id}` })).statusCode).toBe(200);
  }, 60_000);
});

describe('exactly once', () => {
  it('a job run twice (racing, then again after the queue forgot it) gives one file and one ExportCompleted', async () => {
    const res = await requestExport(statsA, { kind: 'stats-tickets', filters: STATS_QUERY });
    const { id } = res.json();
    const deps = { pool: h.pool, store: h.store, blobs: h.deps.blobs, clock: () => new Date() };
    // Two more runs racing the worker's own.
    const outcomes = await Promise.all([produceExport(deps, id, async () => undefined), produceExport(deps, id, async () => undefined)]);
    await waitDone(statsA, id);
    const jobId = `export-${id}`;
    await until(async () => (await queues.get('exports').getJob(jobId))?.finishedOn !== undefined);
    const refs = new Set(outcomes.flatMap((outcome) => (outcome.status === 'done' ? [outcome.blobRef] : [])));
    const events = await streamEvents(id);
    expect(events.map((event) => event.type)).toEqual(['ExportRequested', 'ExportCompleted']);
    const done = events[1]!.data as ExportCompletedData;
    // Every run wrote the same bytes (asOf is fixed in the request): one file.
    for (const ref of refs) expect(ref).toBe(done.blobRef);

    // The reactor replayed from position 0: the queue still has the job, nothing new.
    const before = await queues.get('exports').getJobCounts('completed');
    await workers.reactor!.stop();
    await h.pool.query('UPDATE jobs.reactor_checkpoints SET position = NULL WHERE name = $1', [workers.reactor!.name]);
    await workers.reactor!.start();
    await until(() => workers.reactor!.hasCaughtUp);
    expect(await queues.get('exports').getJobCounts('completed')).toEqual(before);

    // The queue forgot the job: the same job id runs again and adds nothing.
    await (await queues.get('exports').getJob(jobId))!.remove();
    await queues.enqueue([{ queue: 'exports', name: PRODUCE_EXPORT_JOB, jobId, data: { exportId: id } }]);
    await until(async () => (await queues.get('exports').getJob(jobId))?.finishedOn !== undefined);
    expect((await queues.get('exports').getJob(jobId))!.returnvalue).toEqual({ status: 'already-done' });
    expect((await streamEvents(id)).map((event) => event.type)).toEqual(['ExportRequested', 'ExportCompleted']);
  }, 60_000);
});
