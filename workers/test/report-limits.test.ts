import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_PREVIEW_JOB, TEMPLATE_PREVIEW_QUEUE, parseEnv, type Env, type ReportGeneratedData, type ReportGenerationFailedData } from '@fsm/contracts';
import { craftedJpeg, craftedPng } from '@fsm/contracts/test-support';
import type { BlobStore, EventStore } from '@fsm/eventstore';
import type { ProjectionRunner } from '@fsm/projections';
import { createQueues } from '../src/queues.js';
import { IMAGE_TOO_LARGE_TEXT } from '../src/reports/report-facts.js';
import { createThreadRenderer } from '../src/reports/report-renderer.js';
import { startWorkers, type RunningWorkers, type StartWorkersOptions } from '../src/start-workers.js';
import { pdfText } from './support/pdf-text.js';
import { TEST_REDIS_URL, obliterateQueues, silentLogger } from './support/test-workers.js';
import { openReadModelWorld, reportEvents, waitFor, type ReadModelWorld } from './support/read-model-world.js';
import { appendAgence, appendClosedTicket, appendTemplate } from './support/ticket-fixture.js';

/*
 * Issue 17, "one request must never stop the platform", on the real path
 * (Postgres, Redis, BullMQ, the reactor, render threads): images already in
 * the log that no report could decode, templates too heavy for the render
 * budget, renders over their budget, and reports while a preview is busy.
 */

let world: ReadModelWorld;
let pool: pg.Pool;
let store: EventStore & { migrate(): Promise<void> };
let runner: ProjectionRunner;
let blobs: BlobStore;
let env: Env;
const prefixes: string[] = [];
const running: RunningWorkers[] = [];

beforeAll(async () => {
  world = await openReadModelWorld('workers_report_limits');
  ({ pool, store, runner, blobs } = world);
  env = parseEnv({ DATABASE_URL: world.db.url, REDIS_URL: TEST_REDIS_URL, DATA_DIR: world.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
});

/** Each describe stops its workers: their reactors would otherwise take the next describe's tickets too. */
const stopWorkers = () => Promise.all(running.splice(0).map((workers) => workers.close()));

afterAll(async () => {
  await stopWorkers();
  for (const prefix of prefixes) {
    const queues = createQueues(TEST_REDIS_URL, prefix);
    await obliterateQueues(queues);
    await queues.close();
    const previews = new Queue(TEMPLATE_PREVIEW_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix });
    await previews.obliterate({ force: true }).catch(() => undefined);
    await previews.close();
  }
  await runner?.stop();
  await world?.close();
});

/** Workers of their own (queue prefix, reactor): each reacts to every close in the log, and skips reports already generated. */
async function start(options: Partial<StartWorkersOptions> = {}): Promise<{ workers: RunningWorkers; prefix: string }> {
  const prefix = `test-limits-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  const workers = await startWorkers({ env, pool, store, logger: silentLogger, queuePrefix: prefix, reactorName: `reactor-${prefix}`, backoffMs: 10, ...options });
  running.push(workers);
  return { workers, prefix };
}


const outcome = (reportId: string) => async () => (await reportEvents(store, reportId)).find((event) => event.type === 'ReportGenerated' || event.type === 'ReportGenerationFailed');

// ~1 MB of table rows, the largest template content the API takes: a 250-page PDF, seconds of work, ~500 MB of heap.
const HEAVY_TEMPLATE = `<h1>Rapport {{ticket.num_chrono}}</h1><table>${'<tr><td>Détecteur optique</td><td>Chambre 214</td><td>OK</td><td>Remplacé</td></tr>'.repeat(12_000)}</table>`;

describe('with the default budgets', () => {
  let prefix: string;
  const previewRenderer = createThreadRenderer();

  beforeAll(async () => {
    ({ prefix } = await start({ previewRenderer }));
  });
  afterAll(async () => {
    await previewRenderer.close();
    await stopWorkers();
  });

  it('renders a report whose photo and signatures declare too many pixels, printing a placeholder instead of decoding them', async () => {
    const agenceId = await appendAgence(store);
    const ticket = await appendClosedTicket(store, blobs, agenceId, 'LYO-2026-01200', {
      photo: craftedPng(12_000, 12_000),
      signatureClient: craftedJpeg(12_000, 12_000),
      signatureTechnicien: craftedPng(20_000, 400),
    });
    const event = await waitFor(outcome(ticket.closedEventId), 60_000);
    expect(event.type).toBe('ReportGenerated');
    const pdf = await blobs.read((event.data as ReportGeneratedData).blobRef);
    const text = pdfText(pdf).replace(/\s+/g, ' ');
    expect(text.split(IMAGE_TOO_LARGE_TEXT).length - 1).toBe(3);
    expect(text).toContain('Signé par : Claire Martin');
    expect(pdf.toString('latin1')).not.toContain('/Subtype /Image');
  });

  it('completes a report while a heavy preview holds the preview thread: reports do not queue behind previews', { timeout: 120_000 }, async () => {
    const previews = new Queue(TEMPLATE_PREVIEW_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix });
    try {
      const preview = await previews.add(TEMPLATE_PREVIEW_JOB, { contentHtml: HEAVY_TEMPLATE, deadlineAt: Date.now() + 120_000 });
      await waitFor(async () => (await previews.getJob(preview.id!))?.isActive(), 60_000);

      const ticket = await appendClosedTicket(store, blobs, await appendAgence(store));
      const event = await waitFor(outcome(ticket.closedEventId), 60_000);
      expect(event.type).toBe('ReportGenerated');
      expect(await (await previews.getJob(preview.id!))!.getState()).toBe('active');
    } finally {
      // Nobody waits for the preview: stop it rather than let it hold the workers' shutdown.
      await previewRenderer.close();
      await previews.close();
    }
  });
});

describe('a template too heavy for the render budget', () => {
  afterAll(stopWorkers);

  it('gives the report in the built-in layout at once, saying why, rather than fail every attempt', { timeout: 120_000 }, async () => {
    await start({ renderLimits: { maxHeapMb: 96 } });
    const templateId = await appendTemplate(store, HEAVY_TEMPLATE, 'Modèle lourd');
    const ticket = await appendClosedTicket(store, blobs, await appendAgence(store, { templateId }), 'LYO-2026-01300');
    const event = await waitFor(outcome(ticket.closedEventId), 60_000);
    expect(event.type).toBe('ReportGenerated');
    const data = event.data as ReportGeneratedData;
    expect(data.templateFallback).toBe('Modèle de l’agence trop lourd (plus de 96 Mo de mémoire) : mise en page par défaut utilisée.');
    expect(data.templateId).toBeNull();
    const text = pdfText(await blobs.read(data.blobRef));
    expect(text).toContain("RAPPORT D'INTERVENTION");
    expect(text).toContain('Ticket n° LYO-2026-01300');
  });
});

describe('a report over its render budget on every attempt', () => {
  afterAll(stopWorkers);

  it('is retried per the queue’s policy, each time on a new thread, and ends with the failure event on the last attempt', { timeout: 120_000 }, async () => {
    const stopped: string[] = [];
    const renderer = createThreadRenderer({ timeoutMs: 1, onThreadStopped: ({ reason }) => stopped.push(reason) });
    const { prefix } = await start({ renderer });
    const ticket = await appendClosedTicket(store, blobs, await appendAgence(store));
    const event = await waitFor(outcome(ticket.closedEventId), 60_000);
    expect(event.type).toBe('ReportGenerationFailed');
    expect((event.data as ReportGenerationFailedData).error).toBe('Rendu interrompu : plus de 1 ms de calcul.');
    const queues = createQueues(TEST_REDIS_URL, prefix);
    try {
      const job = await queues.get('reports').getJob(`report-${ticket.closedEventId}`);
      await waitFor(async () => (await job!.getState()) === 'failed', 60_000);
      const failed = await queues.get('reports').getJob(`report-${ticket.closedEventId}`);
      expect(failed!.attemptsMade).toBe(8);
      expect(stopped).toEqual(Array.from({ length: 8 }, () => 'timeout'));
    } finally {
      await queues.close();
    }
    const failures = (await reportEvents(store, ticket.closedEventId)).filter((recorded) => recorded.type === 'ReportGenerationFailed');
    expect(failures).toHaveLength(1);
  });
});
