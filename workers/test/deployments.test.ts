import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_PREVIEW_QUEUE, parseEnv, type Env } from '@fsm/contracts';
import { deploymentKeyPrefix } from '@fsm/eventstore';
import { SEND_REPORT_EMAIL_JOB } from '../src/email/email-processor.js';
import { FOREIGN_JOB_DELAY_MS } from '../src/own-log.js';
import { createQueues, type Queues } from '../src/queues.js';
import { RENDER_REPORT_JOB } from '../src/reports/report-processor.js';
import type { ReportRenderer } from '../src/reports/report-renderer.js';
import { startWorkers, type RunningWorkers } from '../src/start-workers.js';
import { TEST_REDIS_URL, obliterateQueues, silentLogger } from './support/test-workers.js';
import { openReadModelWorld, reportEvents, waitFor, type ReadModelWorld } from './support/read-model-world.js';
import { appendAgence, appendClosedTicket, type ClosedTicket } from './support/ticket-fixture.js';

/*
 * Issue 32, item 14: two deployments (two databases) on one Redis database.
 * Each one's workers start with the default key prefix, named after its log,
 * so neither sees the other's jobs; and a job that still reaches a log that is
 * not its own (a shared prefix, a job of an older version) is left alone:
 * never failed, nothing appended (an empty log stays empty, so the demo seed
 * still runs).
 */

/** PDF bytes without a render thread: this test is about queues, not layout. */
const stubRenderer = (): ReportRenderer => ({
  render: async () => ({ pdf: Buffer.from('%PDF-1.4\n% test\n%%EOF\n'), templateFallback: null }),
  close: async () => undefined,
});

interface Deployment {
  world: ReadModelWorld;
  env: Env;
  workers: RunningWorkers;
  prefix: string;
  logId: string;
  queues: Queues;
}

const deployments: Deployment[] = [];

async function deploy(label: string): Promise<Deployment> {
  const world = await openReadModelWorld(label);
  const env = parseEnv({ DATABASE_URL: world.db.url, REDIS_URL: TEST_REDIS_URL, DATA_DIR: world.dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  // No queuePrefix: the deployment's own, as main.ts starts them.
  const workers = await startWorkers({ env, pool: world.pool, store: world.store, logger: silentLogger, renderer: stubRenderer(), previewRenderer: stubRenderer(), backoffMs: 10 });
  const prefix = await deploymentKeyPrefix(world.store);
  const deployment = { world, env, workers, prefix, logId: await world.store.logIdentity(), queues: createQueues(TEST_REDIS_URL, prefix) };
  deployments.push(deployment);
  return deployment;
}

let a: Deployment;
let b: Deployment;

beforeAll(async () => {
  a = await deploy('workers_deploy_a');
  b = await deploy('workers_deploy_b');
});

afterAll(async () => {
  for (const deployment of deployments) {
    await deployment.workers.close();
    await obliterateQueues(deployment.queues);
    await deployment.queues.close();
    const previews = new Queue(TEMPLATE_PREVIEW_QUEUE, { connection: { url: TEST_REDIS_URL }, prefix: deployment.prefix });
    await previews.obliterate({ force: true }).catch(() => undefined);
    await previews.close();
    await deployment.world.runner.stop();
    await deployment.world.close();
  }
});

const generated = (deployment: Deployment, ticket: ClosedTicket) => async () =>
  (await reportEvents(deployment.world.store, ticket.closedEventId)).find((event) => event.type === 'ReportGenerated' || event.type === 'ReportGenerationFailed');

describe('two deployments on one Redis (issue 32)', () => {
  it('keeps each deployment’s jobs under its own prefix, named after its log: neither sees the other’s', async () => {
    expect(a.logId).not.toBe(b.logId);
    expect(a.prefix).toBe(`fsm-${a.logId}`);
    expect(b.prefix).not.toBe(a.prefix);

    const ticketA = await appendClosedTicket(a.world.store, a.world.blobs, await appendAgence(a.world.store), 'LYO-2026-03201');
    const ticketB = await appendClosedTicket(b.world.store, b.world.blobs, await appendAgence(b.world.store), 'LYO-2026-03202');
    expect((await waitFor(generated(a, ticketA))).type).toBe('ReportGenerated');
    expect((await waitFor(generated(b, ticketB))).type).toBe('ReportGenerated');

    const jobA = await a.queues.get('reports').getJob(`report-${ticketA.closedEventId}`);
    expect(jobA?.data).toMatchObject({ reportId: ticketA.closedEventId, logId: a.logId });
    expect(await b.queues.get('reports').getJob(`report-${ticketA.closedEventId}`)).toBeUndefined();
    expect(await a.queues.get('reports').getJob(`report-${ticketB.closedEventId}`)).toBeUndefined();
    // Neither log holds anything about the other's visit.
    expect(await reportEvents(b.world.store, ticketA.closedEventId)).toEqual([]);
    expect(await reportEvents(a.world.store, ticketB.closedEventId)).toEqual([]);
  });

  it('leaves alone a job that is not about its log: put back, never failed, nothing appended', async () => {
    const ticketA = await appendClosedTicket(a.world.store, a.world.blobs, await appendAgence(a.world.store), 'LYO-2026-03203');
    const headBefore = await b.world.store.headPosition();
    const reports = b.queues.get('reports');
    const emails = b.queues.get('emails');
    const target = { reportId: ticketA.closedEventId, ticketId: ticketA.ticketId, interventionId: null };
    // A's job in B's queues: one that says which log it is for, one of an older version that does not.
    const tagged = await reports.add(RENDER_REPORT_JOB, { ...target, logId: a.logId }, { jobId: `foreign-tagged-${randomUUID()}` });
    const untagged = await reports.add(RENDER_REPORT_JOB, target, { jobId: `foreign-untagged-${randomUUID()}` });
    const email = await emails.add(SEND_REPORT_EMAIL_JOB, { reportId: ticketA.closedEventId, requestEventId: randomUUID() }, { jobId: `foreign-email-${randomUUID()}` });

    for (const job of [tagged, untagged, email]) {
      const queue = job.queueName === 'reports' ? reports : emails;
      // Taken once by B's worker, then back in the delayed set for its owner.
      await waitFor(async () => {
        const seen = await queue.getJob(job.id!);
        return seen !== undefined && seen.attemptsStarted > 0 && (await seen.getState()) === 'delayed';
      }, 20_000);
      const seen = (await queue.getJob(job.id!))!;
      expect(seen.attemptsMade).toBe(0);
      expect(seen.failedReason ?? '').toBe('');
      expect(seen.delay).toBeGreaterThan(FOREIGN_JOB_DELAY_MS / 2);
    }
    expect(await reports.getFailedCount()).toBe(0);
    expect(await emails.getFailedCount()).toBe(0);
    // Nothing appended to B's log: no ReportGenerationFailed, no ReportEmailFailed.
    expect(await b.world.store.headPosition()).toBe(headBefore);
    expect(await reportEvents(b.world.store, ticketA.closedEventId)).toEqual([]);
  });
});
