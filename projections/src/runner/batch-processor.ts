import type pg from 'pg';
import type { QueryResult } from 'pg';
import { isLeaseLost, type LeaderSession, type Position, type RecordedEvent, type SubscriptionBatch } from '@fsm/eventstore';
import type { Projector, Replay } from '../projector.js';
import { withQuery } from '../query-proxy.js';
import { RUNNER_SCHEMA, type StoppedProjector } from '../stopped-projectors.js';
import { checkpointOf, type LogOrder, type StoredCheckpoint } from './log-order.js';
import type { ProjectorSet } from './projector-set.js';
import type { RunnerLogger } from './runner-options.js';
import type { BatchStop, RecordedStop, StoppedReadModels } from './stopped-read-models.js';

/** SQLSTATE of a statement sent after another failed in the same transaction. */
const IN_FAILED_TRANSACTION = '25P02';

/**
 * Tries of one projector on one event, each in its own savepoint, before it is
 * stopped there: a failure that comes back every time is the event's, not luck.
 */
const ATTEMPTS_BEFORE_STOP = 3;

/**
 * Failures that say nothing about the event: the connection, a conflict with
 * another transaction, resources, an operator. The batch is retried whole (the
 * subscription pauses and delivers it again); no projector is stopped for them.
 */
export function isTransientFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code) ||
    code.startsWith('08') || // connection exception
    code.startsWith('40') || // transaction rollback: serialization failure, deadlock
    code.startsWith('53') || // insufficient resources: disk full, out of memory, too many connections
    code.startsWith('57') || // operator intervention: statement timeout, shutdown
    code.startsWith('58') || // system error (I/O)
    code === '55P03' || // lock not available (lock_timeout)
    code === '55006' // object in use
  );
}

/**
 * The transaction as projectors applied side by side see it: their statements
 * go to Postgres one after the other, in the order they were asked for (a
 * connection runs one statement at a time; pg deprecates queueing on it).
 */
function oneQueryAtATime(client: pg.PoolClient): pg.PoolClient {
  let tail: Promise<unknown> = Promise.resolve();
  return withQuery(client, (query, ...args) => {
    const run = tail.then(() => query(...args));
    tail = run.catch(() => undefined);
    return run;
  });
}

export type BatchOutcome =
  | { kind: 'rebuild' }
  | { kind: 'already-applied'; position: Position | null }
  | {
      kind: 'applied';
      position: Position;
      changed: Set<string>;
      stops: RecordedStop[];
      resumed: StoppedProjector[];
      /** Projectors that were behind `position` and reached it in this batch. */
      caughtUp: string[];
      /** The lowest checkpoint of the projectors still applied: nothing below it is needed any more. */
      lowestRunning: Position | null;
      /** Every read model is at `position` (none stopped or behind): a replay may go on pipelined. */
      level: boolean;
    };

/** The checkpoint row as a batch's transaction locks it. */
interface CheckpointRow {
  position: string | null;
  rebuild_requested: boolean;
  projector_positions: Record<string, Position | null>;
}

/**
 * BEGIN and the checkpoint lock in one round trip (simple protocol, the
 * runner's own name as a literal): a batch is a few statements, so each round
 * trip saved shows in the command latency and the rebuild rate.
 */
export async function beginAndLockCheckpoint(client: pg.PoolClient, runner: string): Promise<CheckpointRow | undefined> {
  const opened = (await client.query(
    `BEGIN; SELECT position, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = ${client.escapeLiteral(runner)} FOR UPDATE`,
  )) as unknown as [QueryResult, QueryResult<CheckpointRow>];
  return opened[1].rows[0];
}

export interface BatchProcessorOptions {
  runner: string;
  projectors: ProjectorSet;
  order: LogOrder;
  stopped: StoppedReadModels;
  logger: RunnerLogger;
  /** Whether `session` is still the runner's own (not lost, not replaced). */
  isCurrent(session: LeaderSession): boolean;
  /** A rebuild is under way in this process: a requested one waits for it. */
  rebuilding(): boolean;
  /** Read models not applied meanwhile (a rebuild of a changed version). */
  isFrozen(projector: string): boolean;
}

/**
 * Applies one batch and moves the checkpoints in ONE transaction, under the
 * checkpoint row's lock (compare-and-set), so each event reaches each read
 * model exactly once, and stops a projector that fails on an event every time
 * while the others go on.
 */
export class BatchProcessor {
  private readonly options: BatchProcessorOptions;
  private readonly runner: string;
  private readonly projectors: ProjectorSet;
  private readonly order: LogOrder;
  private readonly stopped: StoppedReadModels;

  constructor(options: BatchProcessorOptions) {
    this.options = options;
    this.runner = options.runner;
    this.projectors = options.projectors;
    this.order = options.order;
    this.stopped = options.stopped;
  }

  /** The projectors together first; after a failure, event by event, to find and stop the one that cannot apply an event. */
  async apply(session: LeaderSession, batch: SubscriptionBatch, target: Position): Promise<BatchOutcome> {
    try {
      return await this.runBatch(session, batch, target, false);
    } catch (error) {
      // A transient failure, a lost session or lease: the subscription retries the batch whole (or stops).
      // Anything else may be one projector on one event: find it, and let the others go on.
      if (isTransientFailure(error) || isLeaseLost(error) || !this.options.isCurrent(session)) throw error;
      this.options.logger.warn({ err: error, runner: this.runner }, 'projections: a batch failed; applying it event by event, projector by projector, to find the cause');
      return this.runBatch(session, batch, target, true);
    }
  }

  /**
   * One batch in one transaction, under the checkpoint row's lock: the
   * projectors together (`isolate` false), or each event and projector in its
   * own savepoint, stopping those that fail (`isolate` true, after the first
   * way failed).
   */
  private async runBatch(session: LeaderSession, batch: SubscriptionBatch, target: Position, isolate: boolean): Promise<BatchOutcome> {
    const client = session.client;
    const name = client.escapeLiteral(this.runner);
    try {
      const row = await beginAndLockCheckpoint(client, this.runner);
      if (!row) throw new Error(`checkpoint row ${this.runner} missing`);
      if (row.rebuild_requested && !this.options.rebuilding()) {
        await client.query('ROLLBACK');
        return { kind: 'rebuild' };
      }
      const stored: StoredCheckpoint = { position: row.position, behind: row.projector_positions };
      const running = new Set(this.projectors.all.filter((projector) => !this.stopped.isStoppedHere(projector.name) && !this.options.isFrozen(projector.name)));
      if (this.order.compare(stored.position, target) >= 0 && [...running].every((projector) => this.order.compare(checkpointOf(stored, projector.name), target) >= 0)) {
        // Already applied (a redelivery after a crash or a takeover).
        await client.query('ROLLBACK');
        return { kind: 'already-applied', position: stored.position };
      }
      const changed = new Set<string>();
      const stops = isolate ? await this.applyOneByOne(client, batch.events, running, stored, changed) : await this.applyTogether(client, batch.events, running, stored, changed);
      const position = this.order.compare(stored.position, target) > 0 ? stored.position! : target;
      const stoppedNow = new Map(stops.map((stop) => [stop.projector, stop]));
      const behind: Record<string, Position | null> = {};
      const checkpoints = new Map<string, Position | null>();
      for (const projector of this.projectors.all) {
        const before = checkpointOf(stored, projector.name);
        const stop = stoppedNow.get(projector);
        const after = stop ? stop.checkpoint : running.has(projector) && this.order.compare(before, target) < 0 ? target : before;
        checkpoints.set(projector.name, after);
        if (this.order.compare(after, position) !== 0) behind[projector.name] = after;
      }
      const resumed = this.stopped.recorded.filter((recorded) => {
        const projector = this.projectors.all.find((candidate) => candidate.name === recorded.projector);
        return projector !== undefined && running.has(projector) && !stoppedNow.has(projector) && this.order.compare(checkpoints.get(projector.name) ?? null, recorded.position) >= 0;
      });
      const recorded = stops.length > 0 ? await this.stopped.record(client, stops) : [];
      await this.stopped.forgetResumed(client, resumed);
      // Fenced: a runner that lost its lease meanwhile (paused, cut off) commits nothing.
      await client.query(
        `${session.fence}; UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = ${client.escapeLiteral(position)}, projector_positions = ${client.escapeLiteral(JSON.stringify(behind))}::jsonb, updated_at = now() WHERE name = ${name}; COMMIT`,
      );
      const caughtUp = Object.keys(stored.behind).filter((projector) => checkpoints.has(projector) && !Object.hasOwn(behind, projector));
      const lowestRunning = this.order.lowest([...running].filter((projector) => !stoppedNow.has(projector)).map((projector) => checkpoints.get(projector.name) ?? null));
      return { kind: 'applied', position, changed, stops: recorded, resumed, caughtUp, lowestRunning, level: Object.keys(behind).length === 0 };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /**
   * Every running projector's share of the batch in one call, with no
   * savepoint; readers and their sources one event at a time, in log order
   * (ProjectorSet.isInterleaved). All of them side by side on the batch's
   * connection (oneQueryAtATime): while Postgres runs one projector's
   * statement, the next one decodes and folds its events, so the two cores
   * work together during a replay. Every share's `apply` starts before
   * anything is awaited: a pipelined replay's folds then take their turns in
   * batch order (replay-rows.ts).
   */
  async applyTogether(
    client: pg.PoolClient,
    events: readonly RecordedEvent[],
    running: ReadonlySet<Projector>,
    stored: StoredCheckpoint,
    changed: Set<string>,
    replay?: Replay,
  ): Promise<BatchStop[]> {
    const shares = new Map<Projector, RecordedEvent[]>();
    const oneByOne: [Projector, RecordedEvent][] = [];
    for (const event of events) {
      for (const projector of this.projectors.handling(event.type)) {
        if (!running.has(projector) || !this.order.isPending(stored, projector, event)) continue;
        if (this.projectors.isInterleaved(projector)) {
          oneByOne.push([projector, event]);
          continue;
        }
        const share = shares.get(projector);
        if (share) share.push(event);
        else shares.set(projector, [event]);
      }
    }
    const serial = oneQueryAtATime(client);
    const applied = [...shares].map(([projector, share]) => projector.apply(serial, share, replay));
    const readers = (async () => {
      const ids: string[] = [];
      for (const [projector, event] of oneByOne) ids.push(...(await projector.apply(serial, [event], replay)));
      return ids;
    })();
    const outcomes = await Promise.allSettled([readers, ...applied]);
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    // The cause, not the statements that ran after it in the aborted transaction.
    if (failures.length > 0) throw failures.find((error) => (error as { code?: unknown } | null)?.code !== IN_FAILED_TRANSACTION) ?? failures[0];
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') for (const id of outcome.value) changed.add(id);
    return [];
  }

  /**
   * After the batch failed as a whole: each event in log order, each projector
   * in its own savepoint (`apply` with a batch of one: the same writer). A
   * projector that fails on an event every time is stopped just before it,
   * with the projectors that read its tables; every other projector applies
   * the whole batch.
   */
  private async applyOneByOne(client: pg.PoolClient, events: readonly RecordedEvent[], running: ReadonlySet<Projector>, stored: StoredCheckpoint, changed: Set<string>): Promise<BatchStop[]> {
    const stops = new Map<Projector, BatchStop>();
    let previous: Position | null = null;
    for (const event of events) {
      for (const projector of this.projectors.handling(event.type)) {
        if (!running.has(projector) || stops.has(projector) || !this.order.isPending(stored, projector, event)) continue;
        const failure = await this.applyInSavepoint(client, projector, event, changed);
        if (!failure) continue;
        // Resubscribing after `previous` delivers this event again: the projector's own checkpoint.
        const stopAt = (stopped: Projector, stoppedWith: Projector | null): BatchStop => ({
          projector: stopped,
          event,
          error: failure.error,
          stoppedWith,
          checkpoint: this.order.later(checkpointOf(stored, stopped.name), previous),
        });
        stops.set(projector, stopAt(projector, null));
        // Readers come later in the order, so none has applied this event yet.
        for (const reader of this.projectors.readersOf(projector)) {
          if (running.has(reader) && !stops.has(reader)) stops.set(reader, stopAt(reader, projector));
        }
      }
      previous = event.position;
    }
    return [...stops.values()];
  }

  /** One projector, one event, in a savepoint; the error when every attempt failed. */
  private async applyInSavepoint(client: pg.PoolClient, projector: Projector, event: RecordedEvent, changed: Set<string>): Promise<{ error: unknown } | null> {
    let failure: { error: unknown } | null = null;
    for (let attempt = 1; attempt <= ATTEMPTS_BEFORE_STOP; attempt++) {
      await client.query('SAVEPOINT projector');
      try {
        const ids = await projector.apply(client, [event]);
        await client.query('RELEASE SAVEPOINT projector');
        for (const id of ids) changed.add(id);
        return null;
      } catch (error) {
        // A session that cannot even roll back to the savepoint is gone: the batch is retried whole.
        await client.query('ROLLBACK TO SAVEPOINT projector; RELEASE SAVEPOINT projector').catch(() => {
          throw error;
        });
        if (isTransientFailure(error)) throw error;
        failure = { error };
      }
    }
    return failure;
  }
}
