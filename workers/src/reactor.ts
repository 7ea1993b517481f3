import type pg from 'pg';
import type { EventStore, Position, RecordedEvent, Subscription, SubscriptionBatch } from '@fsm/eventstore';

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
 */
export class Reactor {
  readonly name: string;
  private readonly byType = new Map<string, Reaction[]>();
  private lockClient: pg.PoolClient | undefined;
  private subscription: Subscription | undefined;
  private standbyTimer: NodeJS.Timeout | undefined;
  private stopped = true;
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
  }

  get isActive(): boolean {
    return this.lockClient !== undefined;
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
    this.stopped = false;
    await this.tryActivate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.standbyTimer) clearTimeout(this.standbyTimer);
    await this.deactivate(false);
  }

  private async tryActivate(): Promise<void> {
    if (this.stopped || this.lockClient) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.options.pool.connect();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [`fsm:reactor:${this.name}`]);
      if (!rows[0]?.locked) {
        client.release();
        return this.scheduleStandby();
      }
      const checkpoint = await client.query<{ position: string | null }>(`SELECT position FROM ${JOBS_SCHEMA}.reactor_checkpoints WHERE name = $1`, [this.name]);
      this.lockClient = client;
      client.on('error', () => {
        void this.deactivate(true).then(() => this.scheduleStandby());
      });
      this.subscribe(checkpoint.rows[0]?.position ?? null);
      this.options.logger?.info({ reactor: this.name }, 'reactor: active');
    } catch (error) {
      client?.release(true);
      this.options.logger?.warn({ err: error }, 'reactor: cannot start, retrying');
      this.scheduleStandby();
    }
  }

  private scheduleStandby(): void {
    if (this.stopped || this.standbyTimer) return;
    this.standbyTimer = setTimeout(() => {
      this.standbyTimer = undefined;
      void this.tryActivate();
    }, this.options.standbyRetryMs ?? 2_000);
    this.standbyTimer.unref?.();
  }

  private async deactivate(broken: boolean): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    this.caughtUp = false;
    await subscription?.stop().catch(() => undefined);
    if (!broken) await this.saveUnsavedCheckpoint().catch(() => undefined);
    this.clearCheckpointTimer();
    this.unsavedCheckpoint = null;
    const client = this.lockClient;
    this.lockClient = undefined;
    if (client) {
      if (!broken) await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`fsm:reactor:${this.name}`]).catch(() => undefined);
      client.release(broken);
    }
  }

  private subscribe(from: Position | null): void {
    const eventTypes = [...this.byType.keys()];
    this.subscription = this.options.store.subscribeToAll({
      from,
      batchSize: this.options.batchSize ?? 200,
      ...(eventTypes.length > 0 ? { filter: { eventTypes } } : {}),
      onBatch: (batch) => this.handle(batch),
      onCaughtUp: () => {
        this.caughtUp = true;
      },
      onError: (error) => this.options.logger?.warn({ err: error }, 'reactor: batch failed, retrying'),
    });
  }

  private async handle(batch: SubscriptionBatch): Promise<void> {
    const client = this.lockClient;
    if (!client || batch.checkpoint === null) return;
    const jobs = batch.events.flatMap((event) => (this.byType.get(event.type) ?? []).flatMap((reaction) => reaction.jobsFor(event)));
    if (jobs.length > 0) await this.options.enqueue(jobs);
    if (jobs.length === 0 && Date.now() - this.checkpointWrittenAt < IDLE_CHECKPOINT_INTERVAL_MS) {
      this.unsavedCheckpoint = batch.checkpoint;
      this.checkpointTimer ??= setTimeout(() => {
        this.checkpointTimer = undefined;
        void this.saveUnsavedCheckpoint().catch((error: unknown) => this.options.logger?.warn({ err: error }, 'reactor: checkpoint not saved, retried at the next batch'));
      }, IDLE_CHECKPOINT_INTERVAL_MS);
      this.checkpointTimer.unref?.();
      return;
    }
    await this.saveCheckpoint(client, batch.checkpoint);
  }

  /** Stores a position; a later-queued write always carries a later position (the unsaved one is dropped here, synchronously). */
  private async saveCheckpoint(client: pg.PoolClient, position: Position): Promise<void> {
    this.unsavedCheckpoint = null;
    this.clearCheckpointTimer();
    this.checkpointWrittenAt = Date.now();
    await client.query(`UPDATE ${JOBS_SCHEMA}.reactor_checkpoints SET position = $2, updated_at = now() WHERE name = $1`, [this.name, position]);
  }

  private async saveUnsavedCheckpoint(): Promise<void> {
    const client = this.lockClient;
    const position = this.unsavedCheckpoint;
    if (client && position !== null) await this.saveCheckpoint(client, position);
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
