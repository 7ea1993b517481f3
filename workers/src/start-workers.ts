import { join } from 'node:path';
import { Worker } from 'bullmq';
import type pg from 'pg';
import type { Logger } from 'pino';
import { TEMPLATE_PREVIEW_QUEUE, type Env } from '@fsm/contracts';
import { createBlobStore, deploymentKeyPrefix, type BlobStore, type EventStore } from '@fsm/eventstore';
import { emailsProcessor } from './email/email-processor.js';
import { createMailer, type Mailer } from './email/mailer.js';
import { exportsProcessor } from './exports/export-processor.js';
import { migrateExportProgress } from './exports/export-progress.js';
import { exportReactions } from './exports/export-reactions.js';
import { migrateSentMails } from './email/sent-mails.js';
import { ownJobsOnly } from './own-log.js';
import { createQueues } from './queues.js';
import { reportReactions } from './reactions.js';
import { Reactor, type Reaction } from './reactor.js';
import { reportsProcessor } from './reports/report-processor.js';
import { createThreadRenderer, type ReportRenderer, type ThreadRendererOptions } from './reports/report-renderer.js';
import { previewsProcessor } from './reports/template-preview.js';

/** Reports rendered at once, each in its own thread: one heavy template does not hold every agency's reports. */
const REPORT_CONCURRENCY = 2;
const PREVIEW_CONCURRENCY = 1;

/** What turns events into jobs: reports (on a close, a re-intervention or a request) and their e-mails. */
export const reactions: readonly Reaction[] = [...reportReactions, ...exportReactions];

export interface RunningWorkers {
  /** Undefined when started with `reactor: false`. */
  reactor: Reactor | undefined;
  close(): Promise<void>;
}

export interface StartWorkersOptions {
  env: Env;
  pool: pg.Pool;
  store: EventStore;
  logger: Logger;
  /** BullMQ key prefix; default: this deployment's, named after its log (`deploymentKeyPrefix`, issue 32). Tests isolate themselves with their own. */
  queuePrefix?: string;
  /** Defaults to `<DATA_DIR>/files`, the API's store. */
  blobs?: BlobStore;
  /** Renders reports (default: two threads, one per report job running at once). */
  renderer?: ReportRenderer;
  /** Renders template previews, apart from reports (default: one thread). */
  previewRenderer?: ReportRenderer;
  /** Budgets of the default renderers' threads (tests shorten them). */
  renderLimits?: Pick<ThreadRendererOptions, 'timeoutMs' | 'maxHeapMb'>;
  mailer?: Mailer;
  /** Start the reactor too (default true); queue workers always start. */
  reactor?: boolean;
  reactorName?: string;
  clock?: () => Date;
  /** BullMQ lock and stall detection; defaults are BullMQ's (30 s). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Backoff base of retried jobs (ms); default 2 s, exponential. */
  backoffMs?: number;
}

/**
 * The workers role: one BullMQ worker per queue ('reports', 'emails', 'exports',
 * 'previews'), PDF
 * rendering in worker threads (reports and previews apart), and the reactor
 * feeding the queues from the log. `close()` lets running jobs finish, then stops everything (SIGTERM).
 */
export async function startWorkers(options: StartWorkersOptions): Promise<RunningWorkers> {
  const { env, pool, store, logger } = options;
  // Issue 32: the queues are this deployment's own, named after its log; every job says which log it is about.
  const logId = await store.logIdentity();
  const prefix = options.queuePrefix ?? (await deploymentKeyPrefix(store));
  const clock = options.clock ?? (() => new Date());
  const blobs = options.blobs ?? createBlobStore(join(env.DATA_DIR, 'files'));
  const log = logger.child({ role: 'workers' });
  const onThreadStopped: ThreadRendererOptions['onThreadStopped'] = ({ threadId, reason, error }) =>
    log.warn({ threadId, reason, err: error }, 'render thread stopped in the middle of a render');
  const renderer = options.renderer ?? createThreadRenderer({ ...options.renderLimits, threads: REPORT_CONCURRENCY, onThreadStopped });
  const previewRenderer = options.previewRenderer ?? createThreadRenderer({ ...options.renderLimits, threads: PREVIEW_CONCURRENCY, onThreadStopped });
  const mailer = options.mailer ?? createMailer({ smtpUrl: env.SMTP_URL, outboxDir: join(env.DATA_DIR, 'outbox'), from: env.MAIL_FROM });
  await migrateSentMails(pool);
  await migrateExportProgress(pool);

  const queues = createQueues(env.REDIS_URL, prefix, options.backoffMs, logId);
  const connection = { url: env.REDIS_URL, maxRetriesPerRequest: null };
  const common = {
    connection,
    prefix,
    ...(options.lockDurationMs !== undefined ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs !== undefined ? { stalledInterval: options.stalledIntervalMs } : {}),
  };
  const workers = [
    new Worker('reports', ownJobsOnly(logId, reportsProcessor({ pool, store, blobs, renderer, clock }), log), { ...common, concurrency: REPORT_CONCURRENCY }),
    new Worker('emails', ownJobsOnly(logId, emailsProcessor({ pool, store, blobs, mailer, clock }), log), { ...common, concurrency: 4 }),
    // CSV exports (docs/exports.md): one at a time, they page through the read models.
    new Worker('exports', ownJobsOnly(logId, exportsProcessor({ pool, store, blobs, clock }), log), { ...common, concurrency: 1 }),
    // The template builder's 'Preview A4': the API waits for the PDF; its own render thread, so a heavy preview never delays a report.
    new Worker(TEMPLATE_PREVIEW_QUEUE, previewsProcessor({ renderer: previewRenderer, clock }), { ...common, concurrency: PREVIEW_CONCURRENCY }),
  ];
  for (const worker of workers) {
    worker.on('failed', (job, error) => log.warn({ queue: worker.name, job: job?.id, attempts: job?.attemptsMade, err: error }, 'job failed'));
    worker.on('error', (error) => log.error({ queue: worker.name, err: error }, 'worker error'));
  }

  let reactor: Reactor | undefined;
  if (options.reactor ?? true) {
    reactor = new Reactor({
      pool,
      store,
      reactions,
      enqueue: queues.enqueue,
      logger: logger.child({ role: 'reactor' }),
      leaseMs: env.LEADER_LEASE_MS,
      ...(options.reactorName ? { name: options.reactorName } : {}),
    });
    await reactor.migrate();
    await reactor.start();
  }

  let closing: Promise<void> | undefined;
  return {
    reactor,
    close() {
      closing ??= (async () => {
        await reactor?.stop();
        await Promise.all(workers.map((worker) => worker.close()));
        await Promise.all([renderer.close(), previewRenderer.close()]);
        await mailer.close();
        await queues.close();
      })();
      return closing;
    },
  };
}
