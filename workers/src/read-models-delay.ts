import type { Job } from 'bullmq';

/*
 * A job that reads the read models (a report, an export) runs only once they
 * have reached the event that asked for it: what it writes is kept for good
 * (ReportGenerated, ExportCompleted), so a run on read models still behind
 * (a rebuild, a stopped read model, projections down) would keep their gaps.
 */

/** The longest one attempt waits for the read models; then the job is delayed. */
export const READ_MODELS_WAIT_MS = 5_000;

/**
 * How long after its job was queued a job keeps waiting for the read models
 * without spending the attempts meant for real failures: a rebuild of a large
 * log takes minutes, the repair of a stopped read model longer. Past it, each
 * wait that ends without them costs an attempt, and the last one records the
 * job's failure event (a new request retries it).
 */
const READ_MODELS_PATIENCE_MS = 60 * 60_000;

/** The longest pause between two looks at read models that are behind. */
const READ_MODELS_RETRY_MAX_MS = 60_000;

/** The read models have not reached the event that asked for the job within this attempt's wait. */
export class ReadModelsNotReadyError extends Error {
  override readonly name = 'ReadModelsNotReadyError';
  constructor(
    /** 'report <id>', 'export <id>'. */
    readonly what: string,
    readonly position: string,
  ) {
    super(`${what}: the read models have not reached its request (position ${position}) yet`);
  }
}

/**
 * Read models behind: the job goes back to the delayed set without counting
 * an attempt (the caller then throws BullMQ's DelayedError), after a pause
 * that doubles from the queue's backoff delay up to READ_MODELS_RETRY_MAX_MS.
 * Answers false once the patience is spent, or without a lock token to move
 * the job with: the failure then counts as an attempt.
 */
export async function delayUntilReadModels(job: Job, token: string | undefined, patienceMs = READ_MODELS_PATIENCE_MS): Promise<boolean> {
  const now = Date.now();
  if (token === undefined || now - job.timestamp >= patienceMs) return false;
  const backoff = job.opts.backoff;
  const base = (typeof backoff === 'number' ? backoff : backoff?.delay) ?? 2_000;
  // Starts that ended neither in success nor in a counted failure: the earlier waits.
  const waits = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
  await job.moveToDelayed(now + Math.min(READ_MODELS_RETRY_MAX_MS, base * 2 ** Math.min(waits, 16)), token);
  return true;
}
