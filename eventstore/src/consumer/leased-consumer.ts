import { performance } from 'node:perf_hooks';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { EventStore, Position, Subscription, SubscriptionBatch } from '../port.js';
import { DEFAULT_LEASE_MS, MAX_LEASE_MS, MIN_LEASE_MS, acquireLease, fenceStatement, isLeaseLost, migrateLeases, releaseLease, renewLease } from './lease.js';

/** The leader's own Postgres session: every write goes through it, fenced. */
export interface LeaderSession {
  readonly client: pg.PoolClient;
  readonly lease: string;
  readonly token: string;
  /**
   * One SQL statement to run inside each write's transaction, as late as
   * possible (just before COMMIT, in the same round trip): it fails with
   * LEASE_LOST_CODE unless this session still holds the lease, and it makes a
   * takeover wait until that transaction ends.
   */
  readonly fence: string;
}

export interface ConsumerLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface LeasedConsumerOptions {
  /** The database holding the lease and the consumer's checkpoints (the read models' database). */
  pool: pg.Pool;
  store: EventStore;
  /** From `leaseName()`: one leader per lease name. */
  lease: string;
  /** Prefix of the log lines ("projections", "reactor"). */
  label: string;
  /** How long a leader that stops renewing keeps the lease (default 10 s). */
  leaseMs?: number;
  /** How often a standby tries to take over (default the lease / 4, at most 2 s). */
  standbyRetryMs?: number;
  batchSize: number;
  /** Whether the next batch is read while one is handled (SubscribeOptions.readAhead). */
  readAhead?: boolean;
  /** Only these event types are delivered (all when absent). */
  eventTypes?: readonly string[];
  logger?: ConsumerLogger;
  /** Once leader (and at each `restart()` without a position): where to read from. */
  prepare(session: LeaderSession): Promise<Position | null>;
  /** One batch; its writes fenced with `session.fence`. A throw redelivers it. */
  handle(batch: SubscriptionBatch, session: LeaderSession): Promise<void>;
  onLeader?(session: LeaderSession): void;
  onCaughtUp?(checkpoint: Position | null): void;
  /**
   * After the subscription stopped, before the session goes. `clean` on a
   * stop: the lease is still held, a last (fenced) write may be made.
   */
  onStepDown?(session: LeaderSession, clean: boolean): Promise<void> | void;
}

const silentLogger: ConsumerLogger = { info() {}, warn() {}, error() {} };

/**
 * One checkpointed consumer of the global log, leader-elected through a
 * lease in Postgres, for the projections runner and the reactor alike.
 *
 * The leader renews its lease every third of it, from the pool; if no renewal
 * succeeds before its local deadline (start of the last successful renewal +
 * lease, never later than the expiry Postgres sees), it stops consuming at once
 * and becomes a standby — a paused, cut-off or overloaded process gives the
 * lease up by itself. Independently of what the process believes, every write
 * runs the fence in its transaction, so a leader resumed after the lease moved
 * on cannot write. A standby takes over when the lease expired, or at once when
 * the holder's session no longer exists (a killed process).
 *
 * The leader's session is configured so that Postgres itself does not wait on
 * a hung holder: statement and idle-in-transaction timeouts (a paused leader's
 * open transaction, and its row locks, go after half a lease) and TCP
 * keepalives (a vanished peer is noticed in seconds, not hours).
 */
export class LeasedConsumer {
  readonly leaseMs: number;
  private readonly options: LeasedConsumerOptions;
  private readonly logger: ConsumerLogger;
  private readonly standbyRetryMs: number;
  /** Names this process in the lease row, for operators. */
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private current: LeaderSession | undefined;
  private subscription: Subscription | undefined;
  private stopped = true;
  /** A takeover in progress (lease, session settings, prepare): a stop waits for it. */
  private activation: Promise<void> | undefined;
  private migrated = false;
  private restartPending = false;
  private standbyTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  /** performance.now() past which the lease may be someone else's. */
  private deadline = 0;

  constructor(options: LeasedConsumerOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.leaseMs = boundedLeaseMs(options.leaseMs ?? DEFAULT_LEASE_MS);
    this.standbyRetryMs = options.standbyRetryMs ?? Math.min(2_000, Math.floor(this.leaseMs / 4));
  }

  /** Whether this instance holds the lease and consumes. */
  get isLeader(): boolean {
    return this.current !== undefined;
  }

  /** The session of the current leadership, if any: compare it with the one a batch got to know whether it is still current. */
  get session(): LeaderSession | undefined {
    return this.current;
  }

  /** A restart asked for and not yet done: batches delivered meanwhile are dropped. */
  get restarting(): boolean {
    return this.restartPending;
  }

  /** Takes the lease and consumes, or stands by while another process holds it. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.tryActivate();
  }

  /** Stops consuming and lets a standby take over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.standbyTimer) clearTimeout(this.standbyTimer);
    this.standbyTimer = undefined;
    // A standby stopped while it takes over would otherwise become leader after the stop, and
    // keep the lease (renewed by its heartbeat) from every other process.
    await this.activation;
    await this.stepDown(true);
  }

  /** Throws (LEASE_LOST_CODE) unless the lease is still this session's: before an effect outside Postgres. */
  async assertLeader(session: LeaderSession): Promise<void> {
    await session.client.query(session.fence);
  }

  /**
   * Stops the subscription from outside the batch callback, then subscribes
   * again: from `from.position`, or from `prepare()` when no position is given.
   */
  restart(from?: { position: Position | null }): void {
    const session = this.current;
    if (!session || this.restartPending) return;
    this.restartPending = true;
    const subscription = this.subscription;
    this.subscription = undefined;
    setImmediate(() => {
      void (async () => {
        await subscription?.stop().catch(() => undefined);
        try {
          const position = from ? from.position : await this.options.prepare(session);
          this.restartPending = false;
          if (this.current === session && !this.subscription) this.subscribe(position);
        } catch (error) {
          this.restartPending = false;
          this.logger.error({ err: error }, `${this.options.label}: could not restart`);
          if (this.current === session) await this.stepDown(false);
          this.scheduleStandby();
        }
      })();
    });
  }

  private tryActivate(): Promise<void> {
    if (this.stopped || this.current || this.activation) return this.activation ?? Promise.resolve();
    this.activation = this.activate().finally(() => {
      this.activation = undefined;
    });
    return this.activation;
  }

  private async activate(): Promise<void> {
    let client: pg.PoolClient | undefined;
    let session: LeaderSession | undefined;
    try {
      if (!this.migrated) {
        await migrateLeases(this.options.pool);
        this.migrated = true;
      }
      client = await this.options.pool.connect();
      const sentAt = performance.now();
      const token = await acquireLease(client, this.options.lease, this.holder, this.leaseMs);
      if (token === null) {
        client.release();
        this.scheduleStandby();
        return;
      }
      // Only a leader's session gets these (and it is destroyed, not returned to the pool, at the end).
      await client.query(sessionSettings(this.leaseMs));
      session = { client, lease: this.options.lease, token, fence: fenceStatement(client, this.options.lease, token) };
      const leader = session;
      client.on('error', (error) => {
        this.loseLease(leader, 'its Postgres session was lost', error);
      });
      this.current = session;
      this.deadline = sentAt + this.leaseMs;
      this.startHeartbeat(session);
      this.logger.info({ lease: this.options.lease, token, holder: this.holder }, `${this.options.label}: leader`);
      this.options.onLeader?.(session);
      const from = await this.options.prepare(session);
      if (this.current === session && !this.subscription && !this.restartPending && !this.stopped) this.subscribe(from);
    } catch (error) {
      if (session && this.current === session) {
        this.logger.error({ err: error }, `${this.options.label}: could not start`);
        await this.stepDown(false);
      } else if (!session) {
        client?.release(true);
        this.logger.warn({ err: error }, `${this.options.label}: cannot reach Postgres, retrying`);
      }
      this.scheduleStandby();
    }
  }

  private subscribe(from: Position | null): void {
    const eventTypes = this.options.eventTypes;
    this.subscription = this.options.store.subscribeToAll({
      from,
      batchSize: this.options.batchSize,
      ...(this.options.readAhead === false ? { readAhead: false } : {}),
      ...(eventTypes && eventTypes.length > 0 ? { filter: { eventTypes: [...eventTypes] } } : {}),
      onBatch: (batch) => this.deliver(batch),
      onCaughtUp: (checkpoint) => {
        if (this.current) this.options.onCaughtUp?.(checkpoint);
      },
      onError: (error) => {
        if (!isLeaseLost(error)) this.logger.warn({ err: error }, `${this.options.label}: batch failed, retrying`);
      },
    });
  }

  private async deliver(batch: SubscriptionBatch): Promise<void> {
    const session = this.current;
    // Stepping down or restarting: this subscription is being stopped, and the
    // next one starts from the stored checkpoints; nothing was stored for this batch.
    if (!session || this.restartPending) return;
    if (performance.now() >= this.deadline) {
      this.loseLease(session, 'not renewed in time');
      return;
    }
    try {
      await this.options.handle(batch, session);
    } catch (error) {
      if (isLeaseLost(error)) this.loseLease(session, 'a write was refused by the fence');
      throw error;
    }
  }

  private startHeartbeat(session: LeaderSession): void {
    let renewing = false;
    const beat = async () => {
      if (this.current !== session || renewing) return;
      renewing = true;
      const sentAt = performance.now();
      try {
        const held = await renewLease(this.options.pool, session.lease, session.token, this.leaseMs);
        if (this.current !== session) return;
        if (!held) return this.loseLease(session, 'expired or taken over');
        this.deadline = sentAt + this.leaseMs;
        this.armDeadline(session);
      } catch (error) {
        this.logger.warn({ err: error }, `${this.options.label}: lease not renewed, retrying`);
      } finally {
        renewing = false;
      }
    };
    this.heartbeatTimer = setInterval(() => void beat(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.heartbeatTimer.unref?.();
    this.armDeadline(session);
  }

  /** Fires at the local deadline, even while a renewal hangs (a cut-off network). */
  private armDeadline(session: LeaderSession): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = setTimeout(
      () => {
        if (this.current === session && performance.now() >= this.deadline) this.loseLease(session, 'not renewed in time');
        else if (this.current === session) this.armDeadline(session);
      },
      Math.max(0, this.deadline - performance.now()),
    );
    this.deadlineTimer.unref?.();
  }

  private loseLease(session: LeaderSession, why: string, error?: unknown): void {
    if (this.current !== session) return;
    this.logger.warn({ lease: session.lease, token: session.token, ...(error ? { err: error } : {}) }, `${this.options.label}: lease lost (${why}), standing by`);
    void this.stepDown(false).then(() => this.scheduleStandby());
  }

  /** Stops consuming at once (`current` cleared first), then waits for the batch in progress and ends the session. */
  private async stepDown(clean: boolean): Promise<void> {
    const session = this.current;
    this.current = undefined;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.heartbeatTimer = undefined;
    this.deadlineTimer = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    const stopping = subscription?.stop().catch(() => undefined);
    // Lost: the session goes first, so a batch waiting on it (a cut-off network) fails now
    // instead of holding the step-down. Destroyed rather than returned in every case: the
    // pool's sessions must not keep the leader's timeouts.
    if (session && !clean) session.client.release(true);
    await stopping;
    if (!session) return;
    try {
      await this.options.onStepDown?.(session, clean);
    } catch (error) {
      this.logger.warn({ err: error }, `${this.options.label}: stepping down`);
    }
    if (clean) {
      await releaseLease(session.client, session.lease, session.token).catch(() => undefined);
      session.client.release(true);
    }
    this.logger.info({ lease: session.lease, token: session.token }, `${this.options.label}: no longer leader`);
  }

  private scheduleStandby(): void {
    if (this.stopped || this.standbyTimer || this.current) return;
    this.standbyTimer = setTimeout(() => {
      this.standbyTimer = undefined;
      void this.tryActivate();
    }, this.standbyRetryMs);
    this.standbyTimer.unref?.();
  }
}

/** The lease length, kept within what makes sense (a heartbeat every third of it). */
export function boundedLeaseMs(leaseMs: number): number {
  if (!Number.isInteger(leaseMs) || leaseMs < MIN_LEASE_MS || leaseMs > MAX_LEASE_MS) {
    throw new RangeError(`lease must be an integer from ${MIN_LEASE_MS} to ${MAX_LEASE_MS} ms, got ${leaseMs}`);
  }
  return leaseMs;
}

/**
 * The leader session's own limits, so Postgres drops a hung holder by itself:
 * an open transaction of a paused leader ends after half a lease (its locks
 * with it, so a takeover waits no longer), a statement after six leases (a
 * rebuild's longest statements stay well below), and a peer that vanished is
 * found by TCP keepalives within about a lease.
 */
function sessionSettings(leaseMs: number): string {
  const probe = Math.max(1, Math.round(leaseMs / 3 / 1000));
  return [
    `SET statement_timeout = '${Math.max(60_000, leaseMs * 6)}ms'`,
    `SET idle_in_transaction_session_timeout = '${Math.max(500, Math.floor(leaseMs / 2))}ms'`,
    `SET tcp_keepalives_idle = ${probe}`,
    `SET tcp_keepalives_interval = ${probe}`,
    'SET tcp_keepalives_count = 3',
    `SET tcp_user_timeout = ${leaseMs}`,
  ].join('; ');
}
