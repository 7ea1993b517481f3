import type pg from 'pg';
import { LeasedConsumer, leaseName, type EventStore, type LeaderSession, type Position, type RecordedEvent, type SubscriptionBatch } from '@fsm/eventstore';

/** A job the reactor asks for; `jobId` is derived from the triggering event id. */
export interface JobRequest {
  queue: string;
  name: string;
  /** BullMQ job ids must not contain ':'. */
  jobId: string;
  data: Record<string, unknown>;
}

/** Turns events into jobs; pure, so a replay asks for exactly the same jobs. */
export interface Reaction {
  /** How the event catalogue and the logs name it. */
  readonly name: string;
  readonly handles: readonly string[];
  jobsFor(event: RecordedEvent): JobRequest[];
}

export type Enqueue = (jobs: readonly JobRequest[]) => Promise<void>;

export interface ReactorLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface ReactorOptions {
  pool: pg.Pool;
  store: EventStore;
  reactions: readonly Reaction[];
  enqueue: Enqueue;
  name?: string;
  batchSize?: number;
  standbyRetryMs?: number;
  /** How long a reactor that stops renewing its lease keeps it (LEADER_LEASE_MS, default 10 s). */
  leaseMs?: number;
  logger?: ReactorLogger;
}

export const JOBS_SCHEMA = 'jobs';

/**
 * A batch that asked for no job moves the stored checkpoint at most this
 * often: every command's events wake the reactor, and writing the position
 * each time cost one synchronous commit per command for nothing. A crash then
 * replays at most this much of the log, which asks for no job.
 */
export const IDLE_CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * Reads the log from its own checkpoint and enqueues jobs. Jobs are enqueued
 * BEFORE the checkpoint moves, so a crash in between enqueues them again —
 * with the same job ids, which the queue ignores while it keeps the job, and
 * which the processors' keyed effects ignore after that. When Redis is down
 * the batch fails and is retried: nothing is lost, it is only late.
 *
 * One reactor per name is active (LeasedConsumer's lease); the checkpoint
 * writes are fenced by it, and the lease is checked again just before jobs are
 * enqueued, so a reactor resumed after losing it neither moves the checkpoint
 * nor, but for that last instant, enqueues (and then only job ids already asked for).
 */
export class Reactor {
  readonly name: string;
  private readonly byType = new Map<string, Reaction[]>();
  private readonly consumer: LeasedConsumer;
  private caughtUp = false;
  private checkpointWrittenAt = 0;
  /** A position reached by job-less batches and not yet stored. */
  private unsavedCheckpoint: Position | null = null;
  private checkpointTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ReactorOptions) {
    this.name = options.name ?? 'reactor';
    for (const reaction of options.reactions) {
      for (const type of reaction.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), reaction]);
    }
    this.consumer = new LeasedConsumer({
      pool: options.pool,
      store: options.store,
      lease: leaseName('reactor', this.name),
      label: 'reactor',
      batchSize: options.batchSize ?? 200,
      eventTypes: [...this.byType.keys()],
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      ...(options.standbyRetryMs !== undefined ? { standbyRetryMs: options.standbyRetryMs } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      prepare: async (session) => {
        const { rows } = await session.client.query<{ position: string | null }>(`SELECT position FROM ${JOBS_SCHEMA}.reactor_checkpoints WHERE name = $1`, [this.name]);
        return rows[0]?.position ?? null;
      },
      handle: (batch, session) => this.handle(batch, session),
      onCaughtUp: () => {
        this.caughtUp = true;
      },
      onStepDown: async (session, clean) => {
        this.caughtUp = false;
        if (clean) await this.saveUnsavedCheckpoint(session);
        this.clearCheckpointTimer();
        this.unsavedCheckpoint = null;
      },
    });
  }

  get isActive(): boolean {
    return this.consumer.isLeader;
  }

  get hasCaughtUp(): boolean {
    return this.caughtUp;
  }

  async migrate(): Promise<void> {
    await this.options.pool.query(`CREATE SCHEMA IF NOT EXISTS ${JOBS_SCHEMA}`).catch(ignoreDuplicate);
    await this.options.pool
      .query(`CREATE TABLE IF NOT EXISTS ${JOBS_SCHEMA}.reactor_checkpoints (name text PRIMARY KEY, position text, updated_at timestamptz NOT NULL DEFAULT now())`)
      .catch(ignoreDuplicate);
    await this.options.pool.query(`INSERT INTO ${JOBS_SCHEMA}.reactor_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING`, [this.name]);
  }

  async start(): Promise<void> {
    await this.consumer.start();
  }

  async stop(): Promise<void> {
    await this.consumer.stop();
  }

  private async handle(batch: SubscriptionBatch, session: LeaderSession): Promise<void> {
    if (batch.checkpoint === null) return;
    const jobs = batch.events.flatMap((event) => (this.byType.get(event.type) ?? []).flatMap((reaction) => reaction.jobsFor(event)));
    if (jobs.length > 0) {
      // Redis is outside the fence: make sure the lease is still ours right before.
      await this.consumer.assertLeader(session);
      await this.options.enqueue(jobs);
    }
    if (jobs.length === 0 && Date.now() - this.checkpointWrittenAt < IDLE_CHECKPOINT_INTERVAL_MS) {
      this.unsavedCheckpoint = batch.checkpoint;
      this.checkpointTimer ??= setTimeout(() => {
        this.checkpointTimer = undefined;
        void this.saveUnsavedCheckpoint(session).catch((error: unknown) => this.options.logger?.warn({ err: error }, 'reactor: checkpoint not saved, retried at the next batch'));
      }, IDLE_CHECKPOINT_INTERVAL_MS);
      this.checkpointTimer.unref?.();
      return;
    }
    await this.saveCheckpoint(session, batch.checkpoint);
  }

  /** Stores a position; a later-queued write always carries a later position (the unsaved one is dropped here, synchronously). */
  private async saveCheckpoint(session: LeaderSession, position: Position): Promise<void> {
    this.unsavedCheckpoint = null;
    this.clearCheckpointTimer();
    this.checkpointWrittenAt = Date.now();
    const client = session.client;
    // One round trip, one implicit transaction: the fence holds the lease row until the update commits.
    await client.query(
      `${session.fence}; UPDATE ${JOBS_SCHEMA}.reactor_checkpoints SET position = ${client.escapeLiteral(position)}, updated_at = now() WHERE name = ${client.escapeLiteral(this.name)}`,
    );
  }

  private async saveUnsavedCheckpoint(session: LeaderSession): Promise<void> {
    const position = this.unsavedCheckpoint;
    if (position !== null) await this.saveCheckpoint(session, position);
  }

  private clearCheckpointTimer(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
  }
}

/** Concurrent `CREATE ... IF NOT EXISTS` from two processes can still collide. */
function ignoreDuplicate(error: { code?: string }): void {
  if (error.code !== '23505' && error.code !== '42P06' && error.code !== '42P07') throw error;
}
