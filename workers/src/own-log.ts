import { DelayedError, type Job, type Processor } from 'bullmq';

/*
 * Issue 32: two deployments on one Redis took each other's jobs. Each
 * deployment's queues live under a key prefix named after its log's identity
 * (`deploymentKeyPrefix`), so no other deployment sees them; and, should two
 * deployments still share queues (the same `queuePrefix` given to both, jobs
 * left by an older version under the old shared prefix), a job that is not
 * about this log is left alone: put back for its owner, never failed, nothing
 * appended to this log.
 */

/** How long a job of another log waits before it is offered again (to its own deployment's workers, sharing the queue). */
export const FOREIGN_JOB_DELAY_MS = 60_000;

/** A job whose subject (ticket, visit, e-mail request) is not in this log: it belongs to another deployment. */
export class NotThisLogError extends Error {
  override readonly name = 'NotThisLogError';
}

/** The log a job was enqueued for (`logId` in its data), or null for a job of an older version that did not say. */
export function jobLogId(job: Pick<Job, 'data'>): string | null {
  const data: unknown = job.data;
  if (typeof data !== 'object' || data === null) return null;
  const { logId } = data as { logId?: unknown };
  return typeof logId === 'string' ? logId : null;
}

export interface ForeignJobLogger {
  warn(obj: unknown, msg?: string): void;
}

/**
 * Wraps a queue's processor: a job enqueued for another log, or one the
 * processor finds is not about this log (NotThisLogError), goes back to the
 * delayed set without spending an attempt (BullMQ's DelayedError) and without
 * anything appended.
 */
export function ownJobsOnly<Result>(logId: string, processor: (job: Job, token?: string) => Promise<Result>, logger?: ForeignJobLogger): Processor {
  const handBack = async (job: Job, token: string | undefined, why: string): Promise<never> => {
    logger?.warn({ queue: job.queueName, job: job.id, jobLogId: jobLogId(job), logId, why }, 'job of another log left alone');
    if (token === undefined) throw new NotThisLogError(why);
    await job.moveToDelayed(Date.now() + FOREIGN_JOB_DELAY_MS, token);
    throw new DelayedError();
  };
  return async (job: Job, token?: string) => {
    const owner = jobLogId(job);
    if (owner !== null && owner !== logId) return handBack(job, token, `enqueued for log ${owner}`);
    try {
      return await processor(job, token);
    } catch (error) {
      if (error instanceof NotThisLogError) return handBack(job, token, error.message);
      throw error;
    }
  };
}
