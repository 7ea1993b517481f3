import { Queue } from 'bullmq';
import type { Enqueue, JobRequest } from './reactor.js';

/** Every queue of the product; one worker per queue branches on `job.name`. */
export const QUEUE_NAMES = ['reports', 'emails', 'exports'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface Queues {
  enqueue: Enqueue;
  get(name: QueueName): Queue;
  close(): Promise<void>;
}

/**
 * `prefix`: the deployment's key prefix (`deploymentKeyPrefix`, issue 32).
 * `backoffMs`: base of the exponential backoff between attempts (tests shorten it).
 * `logId`: the log the jobs are about, written in each job's data, so a worker
 * of another log that meets one leaves it alone (`ownJobsOnly`).
 */
export function createQueues(redisUrl: string, prefix = 'fsm', backoffMs = 2_000, logId?: string): Queues {
  const connection = { url: redisUrl, maxRetriesPerRequest: null };
  const queues = new Map<QueueName, Queue>(
    QUEUE_NAMES.map((name) => [
      name,
      new Queue(name, {
        connection,
        prefix,
        defaultJobOptions: {
          attempts: 8,
          backoff: { type: 'exponential', delay: backoffMs },
          // Kept long enough that a replayed event finds its job and adds nothing.
          removeOnComplete: { age: 30 * 24 * 3600 },
          removeOnFail: { age: 90 * 24 * 3600 },
        },
      }),
    ]),
  );
  const get = (name: QueueName): Queue => {
    const queue = queues.get(name);
    if (!queue) throw new Error(`unknown queue ${name}`);
    return queue;
  };
  return {
    get,
    async enqueue(jobs: readonly JobRequest[]) {
      const byQueue = new Map<QueueName, JobRequest[]>();
      for (const job of jobs) {
        if (job.jobId.includes(':')) throw new Error(`job id ${job.jobId} contains ':'`);
        const name = job.queue as QueueName;
        byQueue.set(name, [...(byQueue.get(name) ?? []), job]);
      }
      await Promise.all(
        [...byQueue].map(([name, list]) => get(name).addBulk(list.map((job) => ({ name: job.name, data: logId ? { ...job.data, logId } : job.data, opts: { jobId: job.jobId } })))),
      );
    },
    async close() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
