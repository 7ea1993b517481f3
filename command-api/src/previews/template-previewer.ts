import { randomUUID } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import {
  TEMPLATE_PREVIEW_JOB,
  TEMPLATE_PREVIEW_MESSAGES,
  TEMPLATE_PREVIEW_QUEUE,
  TEMPLATE_PREVIEW_TIMEOUT_MS,
  UnavailableError,
  templatePreviewResultSchema,
  type TemplatePreviewJob,
} from '@fsm/contracts';

/** Asks the workers for a template's 'Preview A4' PDF. */
export interface TemplatePreviewer {
  /** The PDF; UnavailableError (503) when no worker answers in time. */
  render(job: TemplatePreviewJob): Promise<{ pdf: Buffer; templateFallback: string | null }>;
  close(): Promise<void>;
}

export interface BullPreviewerOptions {
  redisUrl: string;
  /** BullMQ key prefix shared with the workers (tests isolate themselves with their own). */
  prefix?: string;
  timeoutMs?: number;
}

interface Connection {
  queue: Queue;
  /** Resolves once Redis answered and the 'completed'/'failed' listener is ready. */
  listener: Promise<QueueEvents>;
  /** The listener as soon as it exists, so close() reaches it even before it is ready. */
  opened?: QueueEvents;
}

/**
 * Request/reply over the 'previews' queue: the API adds a job and waits for
 * its 'completed' event (QueueEvents). The connection is opened on the first
 * preview, so an API that never previews never holds one. A job nobody took
 * in time is removed, and one being rendered is stopped by the workers at the
 * same deadline: nobody is waiting for it any more.
 */
export function createBullPreviewer(options: BullPreviewerOptions): TemplatePreviewer {
  const timeoutMs = options.timeoutMs ?? TEMPLATE_PREVIEW_TIMEOUT_MS;
  const prefix = options.prefix ?? 'fsm';
  let started: Connection | undefined;

  const listen = async (connection: Connection): Promise<QueueEvents> => {
    const listener = new QueueEvents(TEMPLATE_PREVIEW_QUEUE, { connection: { url: options.redisUrl, maxRetriesPerRequest: null }, prefix });
    listener.on('error', () => undefined);
    connection.opened = listener;
    await listener.waitUntilReady();
    return listener;
  };

  const start = (): Connection => {
    if (started) return started;
    const queue = new Queue(TEMPLATE_PREVIEW_QUEUE, {
      // Fail fast instead of queueing commands while Redis is down.
      connection: { url: options.redisUrl, maxRetriesPerRequest: 1, enableOfflineQueue: false },
      prefix,
      defaultJobOptions: { attempts: 1, removeOnComplete: { age: 60 }, removeOnFail: { age: 3600 } },
    });
    // Errors surface as a failed preview (503); this listener only keeps them out of the logs.
    queue.on('error', () => undefined);
    // The listener's blocking connection is opened once Redis has answered the queue.
    const connection: Connection = { queue, listener: queue.waitUntilReady().then(() => listen(connection)) };
    // A first attempt while Redis was down must not poison the next ones.
    connection.listener.catch(() => {
      if (started === connection) started = undefined;
      void queue.close().catch(() => undefined);
    });
    started = connection;
    return connection;
  };

  const withTimeout = <T>(promise: Promise<T>, onTimeout: () => void): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        onTimeout();
        reject(new UnavailableError(TEMPLATE_PREVIEW_MESSAGES.unavailable));
      }, timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };

  return {
    async render(job) {
      // The workers stop rendering when this stops waiting (the job carries the moment).
      const deadlineAt = Date.now() + timeoutMs;
      const { queue, listener } = start();
      let jobId: string | undefined;
      const work = (async () => {
        try {
          const events = await listener;
          const added = await queue.add(TEMPLATE_PREVIEW_JOB, { ...job, deadlineAt }, { jobId: `preview-${randomUUID()}` });
          jobId = added.id;
          return templatePreviewResultSchema.parse(await added.waitUntilFinished(events, timeoutMs));
        } catch (error) {
          // A job that failed in the worker (its renderer died): the template could not be rendered at all.
          if (jobId && error instanceof Error && !/timed out/i.test(error.message)) throw new UnavailableError(TEMPLATE_PREVIEW_MESSAGES.failed);
          // Redis refused the job, or nobody answered.
          throw new UnavailableError(TEMPLATE_PREVIEW_MESSAGES.unavailable);
        }
      })();
      const result = await withTimeout(work, () => {
        if (jobId) void queue.remove(jobId).catch(() => undefined);
      });
      return { pdf: Buffer.from(result.pdfBase64, 'base64'), templateFallback: result.templateFallback };
    },
    async close() {
      if (!started) return;
      const { queue, opened: listener } = started;
      started = undefined;
      // close() waits for Redis: when it is unreachable, drop the connections rather than hang the shutdown.
      const closed = Promise.allSettled([queue.close(), listener?.close()]);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 2_000)));
      if ((await Promise.race([closed, late])) === 'late') {
        void queue.disconnect().catch(() => undefined);
        void listener?.disconnect().catch(() => undefined);
      }
      clearTimeout(timer);
    },
  };
}
