import type pg from 'pg';
import { LeasedConsumer, leaseName, type EventStore, type LeaderSession, type Position, type SubscriptionBatch } from '@fsm/eventstore';
import { RUNNER_SCHEMA } from '../stopped-projectors.js';
import type { RunnerLogger } from './runner-options.js';

/**
 * Events per batch when behind (a restart): larger batches mean fewer
 * statements per event. Live, a batch holds only what arrived meanwhile.
 * 2,000 replayed 25 % faster than 500 (docs/benchmarks.md).
 */
const DEFAULT_BATCH_SIZE = 2_000;

/** What the runner does at each step of the subscription. */
export interface SubscriptionHooks {
  /** Before (re)subscribing: the position to read from. */
  prepare(client: pg.PoolClient): Promise<Position | null>;
  handle(batch: SubscriptionBatch, session: LeaderSession): Promise<void>;
  /** False while the head of the log does not count as caught up (a rebuild still to be swapped in). */
  countsAsCaughtUp(): boolean;
  caughtUp(): void;
  /** The lease is lost or given up: before the session goes. */
  stepDown(): Promise<void>;
  /** A rebuild is under way in this process: a rebuild request needs no restart. */
  rebuilding(): boolean;
}

export interface RunnerSubscriptionOptions {
  pool: pg.Pool;
  store: EventStore;
  name: string;
  eventTypes: string[];
  batchSize?: number;
  /** A shadow keeps two batches in flight itself (pipelined-replay.ts). */
  readAhead: boolean;
  leaseMs?: number;
  standbyRetryMs?: number;
  logger: RunnerLogger;
  hooks: SubscriptionHooks;
}

/**
 * The runner's subscription to the log: a lease (LeasedConsumer,
 * docs/operations.md) makes one runner per name active, every piece of work on
 * its session runs one at a time, and a requested rebuild or retry restarts it.
 */
export class RunnerSubscription {
  private readonly consumer: LeasedConsumer;
  private readonly pool: pg.Pool;
  private readonly name: string;
  private readonly hooks: SubscriptionHooks;
  private caughtUpOnce = false;
  private rebuildCheckTimer: NodeJS.Timeout | undefined;
  /** Serialises work on the lock session (batches, rebuilds): one transaction at a time. */
  private sessionQueue: Promise<unknown> = Promise.resolve();

  constructor(options: RunnerSubscriptionOptions) {
    this.pool = options.pool;
    this.name = options.name;
    this.hooks = options.hooks;
    const hooks = options.hooks;
    this.consumer = new LeasedConsumer({
      pool: options.pool,
      store: options.store,
      lease: leaseName('projections', options.name),
      label: 'projections',
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      readAhead: options.readAhead,
      eventTypes: options.eventTypes,
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      ...(options.standbyRetryMs !== undefined ? { standbyRetryMs: options.standbyRetryMs } : {}),
      logger: options.logger,
      onLeader: () => this.scheduleRebuildCheck(),
      prepare: (session) => this.exclusive(() => hooks.prepare(session.client)),
      handle: (batch, session) => this.exclusive(() => hooks.handle(batch, session)),
      onCaughtUp: () => {
        if (!hooks.countsAsCaughtUp()) return;
        this.caughtUpOnce = true;
        hooks.caughtUp();
      },
      onStepDown: async () => {
        await hooks.stepDown();
        if (this.rebuildCheckTimer) clearTimeout(this.rebuildCheckTimer);
        this.rebuildCheckTimer = undefined;
        this.caughtUpOnce = false;
      },
    });
  }

  /** Whether this instance currently holds the lease and applies batches. */
  get isActive(): boolean {
    return this.consumer.isLeader;
  }

  get hasCaughtUp(): boolean {
    return this.caughtUpOnce;
  }

  get session(): LeaderSession | undefined {
    return this.consumer.session;
  }

  async start(): Promise<void> {
    await this.consumer.start();
  }

  async stop(): Promise<void> {
    await this.consumer.stop();
  }

  /** Runs `work` once the work before it on the session is done. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.sessionQueue.then(work, work);
    this.sessionQueue = run.catch(() => undefined);
    return run;
  }

  /**
   * The position a delivered batch takes the read models to; null when it is
   * to be dropped. Batches still in flight while a rebuild or a retry restarts
   * the subscription are dropped: nothing was stored for them, and the new
   * subscription starts from the stored checkpoints.
   */
  targetOf(batch: SubscriptionBatch, session: LeaderSession): Position | null {
    if (this.consumer.session !== session) throw new Error('projections: not active');
    if (this.consumer.restarting) return null;
    return batch.checkpoint;
  }

  /** Prepares again (rebuild, retry) and resubscribes, once the batch in progress is done. */
  restart(): void {
    if (!this.isActive || this.consumer.restarting) return;
    this.caughtUpOnce = false;
    this.consumer.restart();
  }

  /** Resubscribes from `position`, past events no projector still applied needs. */
  skipTo(position: Position): void {
    this.consumer.restart({ position });
  }

  /** An idle runner receives no batch, so a requested rebuild or retry is also polled for. */
  private scheduleRebuildCheck(): void {
    if (this.rebuildCheckTimer) clearTimeout(this.rebuildCheckTimer);
    this.rebuildCheckTimer = setTimeout(() => {
      this.rebuildCheckTimer = undefined;
      if (!this.isActive) return;
      void this.pool
        .query<{ rebuild_requested: boolean; retry_requested: boolean }>(
          `SELECT rebuild_requested, retry_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
          [this.name],
        )
        .then(
          ({ rows }) => {
            if ((rows[0]?.rebuild_requested && !this.hooks.rebuilding()) || rows[0]?.retry_requested) this.restart();
          },
          () => undefined,
        )
        .finally(() => {
          if (this.isActive) this.scheduleRebuildCheck();
        });
    }, 1_000);
    this.rebuildCheckTimer.unref?.();
  }
}
