import type pg from 'pg';
import { isLeaseLost, type LeaderSession, type Position, type SubscriptionBatch } from '@fsm/eventstore';
import type { Replay } from '../projector.js';
import { withQuery } from '../query-proxy.js';
import { ReplayRows } from '../replay-rows.js';
import { RUNNER_SCHEMA } from '../stopped-projectors.js';
import { beginAndLockCheckpoint, type BatchOutcome, type BatchProcessor } from './batch-processor.js';
import type { LogOrder } from './log-order.js';
import type { ProjectorSet } from './projector-set.js';
import type { RunnerLogger } from './runner-options.js';
import type { RunnerSubscription } from './subscription.js';

/** The transaction of a pipelined batch: its statements go once `ready` (the batch before committed, this one's opened). */
function afterCommit(client: pg.PoolClient, ready: Promise<unknown>): pg.PoolClient {
  return withQuery(client, (query, ...args) => ready.then(() => query(...args)));
}

/**
 * A replay applied two batches at a time: the last batch started, where the
 * checkpoint stands once it commits, its commit and its whole handling, and
 * the rows the batches wrote (replay-rows.ts).
 */
interface Pipeline {
  head: Position;
  committed: Promise<unknown>;
  done: Promise<unknown>;
  replay: Replay;
}

export interface PipelinedReplayOptions {
  runner: string;
  projectors: ProjectorSet;
  order: LogOrder;
  batches: BatchProcessor;
  subscription: RunnerSubscription;
  logger: RunnerLogger;
  /** What follows a batch's transaction (runner.ts). */
  afterBatch(outcome: BatchOutcome, batch: SubscriptionBatch, target: Position): Promise<void>;
}

/**
 * A rebuild's shadow, which nobody reads before the swap, replays two
 * batches at a time once its read models are level (none stopped or behind):
 * batch N+1's projectors fold while Postgres still writes and commits batch N.
 */
export class PipelinedReplay {
  private readonly options: PipelinedReplayOptions;
  /** The replay's batches in flight, while it is applied pipelined. */
  private pipeline: Pipeline | null = null;

  constructor(options: PipelinedReplayOptions) {
    this.options = options;
  }

  get active(): boolean {
    return this.pipeline !== null;
  }

  /** Goes on pipelined from `head`, where a batch applied the first way just committed. */
  begin(head: Position): void {
    this.pipeline = { head, committed: Promise.resolve(), done: Promise.resolve(), replay: { rows: new ReplayRows() } };
  }

  /**
   * A replay's batch, pipelined: its projectors fold it while Postgres still
   * writes and commits the batch before it, and this returns once that one is
   * done, so the subscription hands over the next batch meanwhile. The batch's
   * statements wait for that commit (`afterCommit`); its transaction checks
   * that the checkpoint is where that commit put it, and the folds start from
   * the rows the batch before wrote (replay-rows.ts), not from the table. On
   * any failure the pipeline stops and the subscription starts again from the
   * stored checkpoints, one batch at a time (the first way, which finds and
   * stops a read model failing on an event) until the replay is level again.
   */
  async apply(batch: SubscriptionBatch, session: LeaderSession): Promise<void> {
    const pipeline = this.pipeline;
    if (!pipeline) throw new Error('projections: no pipelined replay under way');
    const { subscription, logger } = this.options;
    const target = subscription.targetOf(batch, session);
    if (target === null) return;
    const committed = this.runBatch(session, batch, target, pipeline);
    const done = committed.then((outcome) => this.options.afterBatch(outcome, batch, target));
    committed.catch(() => undefined);
    done.catch(() => undefined);
    this.pipeline = { head: target, committed, done, replay: pipeline.replay };
    try {
      await pipeline.done;
      // The head of the log: nothing left in flight when the subscription says it caught up.
      if (batch.caughtUp) await done;
    } catch (error) {
      await this.settle();
      if (isLeaseLost(error) || subscription.session !== session) throw error;
      logger.warn({ err: error, runner: this.options.runner }, 'projections: a pipelined batch failed; the replay goes on from the stored checkpoints');
      subscription.restart();
    }
  }

  /** Waits for the pipelined batches in flight, and applies one batch at a time from then on; false when one failed. */
  async settle(): Promise<boolean> {
    const pipeline = this.pipeline;
    if (!pipeline) return true;
    this.pipeline = null;
    return pipeline.done.then(
      () => true,
      () => false,
    );
  }

  /** One pipelined batch: its transaction opens once the batch before has committed. */
  private async runBatch(session: LeaderSession, batch: SubscriptionBatch, target: Position, pipeline: Pipeline): Promise<BatchOutcome> {
    const { runner, projectors, order, batches } = this.options;
    const client = session.client;
    let opened = false;
    const ready = pipeline.committed.then(async () => {
      opened = true;
      const row = await beginAndLockCheckpoint(client, runner);
      if (!row || row.rebuild_requested || order.compare(row.position, pipeline.head) !== 0 || Object.keys(row.projector_positions).length > 0) {
        throw new Error(`projections: ${runner}'s checkpoint is not where the pipelined batch expected it`);
      }
    });
    ready.catch(() => undefined);
    try {
      const changed = new Set<string>();
      await batches.applyTogether(afterCommit(client, ready), batch.events, new Set(projectors.all), { position: pipeline.head, behind: {} }, changed, pipeline.replay);
      await ready;
      await client.query(
        `${session.fence}; UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = ${client.escapeLiteral(target)}, projector_positions = '{}'::jsonb, updated_at = now() WHERE name = ${client.escapeLiteral(runner)}; COMMIT`,
      );
      return { kind: 'applied', position: target, changed, stops: [], resumed: [], caughtUp: [], lowestRunning: target, level: true };
    } catch (error) {
      if (opened) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
