import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { QueryResult } from 'pg';
import type { EventStore, Position, RecordedEvent, Subscription, SubscriptionBatch } from '@fsm/eventstore';
import type { Projector } from './projector.js';

/** Schema holding every read-model table: `rebuild` drops it whole. */
export const READ_MODEL_SCHEMA = 'rm';
/** Schema holding the runner's own bookkeeping (checkpoints): survives rebuilds. */
export const RUNNER_SCHEMA = 'proj';
/** Channel on which a committed batch is announced to other processes. */
export const PROJECTION_CHANNEL = 'projections_advanced';

export interface ProjectionAdvance {
  runner: string;
  position: Position;
  /** Ids whose rows changed in this batch (bounded; `truncated` when it was cut). */
  ids: string[];
  truncated: boolean;
}

export interface RunnerLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface ProjectionRunnerOptions {
  pool: pg.Pool;
  store: EventStore;
  projectors: readonly Projector[];
  /** Names the checkpoint and the advisory lock; one active runner per name. */
  name?: string;
  batchSize?: number;
  /** How often a standby runner tries to take over. */
  standbyRetryMs?: number;
  logger?: RunnerLogger;
}

const MAX_IDS_PER_NOTIFY = 200;
/**
 * Events per batch when behind (a rebuild, a restart): larger batches mean
 * fewer statements per event (the set-based projectors write a round of a
 * batch in one statement). Live, a batch holds only what arrived meanwhile.
 * 2,000 replayed 25 % faster than 500 and no slower than 5,000 (docs/benchmarks.md).
 */
const DEFAULT_BATCH_SIZE = 2_000;

const silentLogger: RunnerLogger = { info() {}, warn() {}, error() {} };

/**
 * Reads the global log from its checkpoint and applies every projector of a
 * batch and the checkpoint in ONE transaction (compare-and-set on the stored
 * position), so each event reaches the read models exactly once, whichever
 * process or crash is involved. A session advisory lock makes one runner per
 * name active; others wait as standbys and take over when its session ends.
 */
export class ProjectionRunner extends EventEmitter {
  readonly name: string;
  private readonly pool: pg.Pool;
  private readonly store: EventStore;
  private readonly projectors: readonly Projector[];
  private readonly byType = new Map<string, Projector[]>();
  private readonly batchSize: number;
  private readonly standbyRetryMs: number;
  private readonly logger: RunnerLogger;
  private lockClient: pg.PoolClient | undefined;
  private subscription: Subscription | undefined;
  private standbyTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private active = false;
  private lastPosition: Position | null = null;
  private caughtUpOnce = false;
  private rebuilding = false;
  /** Set by a reset: the replayed tables are vacuumed and analyzed once caught up. */
  private analyzeWhenCaughtUp = false;
  private rebuildCheckTimer: NodeJS.Timeout | undefined;
  /** Serialises work on the lock session (batches, rebuilds): one transaction at a time. */
  private sessionQueue: Promise<unknown> = Promise.resolve();

  constructor(options: ProjectionRunnerOptions) {
    super();
    this.name = options.name ?? 'read-models';
    this.pool = options.pool;
    this.store = options.store;
    this.projectors = options.projectors;
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.standbyRetryMs = options.standbyRetryMs ?? 2_000;
    this.logger = options.logger ?? silentLogger;
    const names = new Set<string>();
    for (const projector of this.projectors) {
      if (names.has(projector.name)) throw new Error(`projector ${projector.name} registered twice`);
      names.add(projector.name);
      for (const type of projector.handles) {
        const list = this.byType.get(type) ?? [];
        list.push(projector);
        this.byType.set(type, list);
      }
    }
  }

  /** Whether this instance currently holds the lock and applies batches. */
  get isActive(): boolean {
    return this.active;
  }

  get position(): Position | null {
    return this.lastPosition;
  }

  get hasCaughtUp(): boolean {
    return this.caughtUpOnce;
  }

  /** The projector set's fingerprint: a change means the read models must be rebuilt. */
  get versions(): Record<string, number> {
    return Object.fromEntries(this.projectors.map((p) => [p.name, p.version]));
  }

  /** Creates the runner's tables and the read-model tables. Safe to run concurrently. */
  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [lockKey('migrate')]);
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${RUNNER_SCHEMA}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${RUNNER_SCHEMA}.checkpoints (
          name text PRIMARY KEY,
          position text,
          versions jsonb NOT NULL DEFAULT '{}'::jsonb,
          rebuild_requested boolean NOT NULL DEFAULT false,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`);
        await client.query(`INSERT INTO ${RUNNER_SCHEMA}.checkpoints (name, versions) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
          this.name,
          JSON.stringify(this.versions),
        ]);
        await this.createReadModels(client);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [lockKey('migrate')]);
      }
    } finally {
      client.release();
    }
  }

  /** Starts applying, or waits as a standby while another runner holds the lock. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.tryActivate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.standbyTimer) clearTimeout(this.standbyTimer);
    this.standbyTimer = undefined;
    await this.deactivate();
  }

  /**
   * Asks for a rebuild. The active runner (here or in another process) drops
   * the read models and replays the log at its next batch; when no runner is
   * active, the next one to start does it.
   */
  async requestRebuild(): Promise<void> {
    await this.pool.query(`UPDATE ${RUNNER_SCHEMA}.checkpoints SET rebuild_requested = true WHERE name = $1`, [this.name]);
    await this.pool.query('SELECT pg_notify($1, $2)', [PROJECTION_CHANNEL, JSON.stringify({ runner: this.name, rebuild: true })]);
  }

  /** Resolves once this runner is active and has reached the head of the log. */
  async waitUntilCaughtUp(): Promise<void> {
    if (this.caughtUpOnce && this.active) return;
    await new Promise<void>((resolve) => {
      const onCaughtUp = () => {
        this.off('caughtUp', onCaughtUp);
        resolve();
      };
      this.on('caughtUp', onCaughtUp);
    });
  }

  private async tryActivate(): Promise<void> {
    if (this.stopped || this.active) return;
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [lockKey(this.name)]);
      if (!rows[0]?.locked) {
        client.release();
        this.scheduleStandby();
        return;
      }
    } catch (error) {
      client?.release(true);
      this.logger.warn({ err: error }, 'projections: cannot reach Postgres, retrying');
      this.scheduleStandby();
      return;
    }
    this.lockClient = client;
    // Losing the session loses the lock: step down and compete again.
    client.on('error', (error) => {
      this.logger.error({ err: error }, 'projections: lock session lost');
      void this.deactivate(true).then(() => this.scheduleStandby());
    });
    this.active = true;
    this.logger.info({ runner: this.name }, 'projections: active');
    this.scheduleRebuildCheck();
    try {
      const from = await this.prepare(client);
      this.lastPosition = from;
      this.subscribe(from);
    } catch (error) {
      this.logger.error({ err: error }, 'projections: could not start');
      await this.deactivate(true);
      this.scheduleStandby();
    }
  }

  /** An idle runner receives no batch, so a requested rebuild is also polled for. */
  private scheduleRebuildCheck(): void {
    if (this.rebuildCheckTimer) clearTimeout(this.rebuildCheckTimer);
    this.rebuildCheckTimer = setTimeout(() => {
      this.rebuildCheckTimer = undefined;
      if (!this.active) return;
      void this.pool
        .query<{ rebuild_requested: boolean }>(`SELECT rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [this.name])
        .then(
          ({ rows }) => {
            if (rows[0]?.rebuild_requested) this.restartWithRebuild();
          },
          () => undefined,
        )
        .finally(() => {
          if (this.active) this.scheduleRebuildCheck();
        });
    }, 1_000);
    this.rebuildCheckTimer.unref?.();
  }

  private scheduleStandby(): void {
    if (this.stopped || this.standbyTimer) return;
    this.standbyTimer = setTimeout(() => {
      this.standbyTimer = undefined;
      void this.tryActivate();
    }, this.standbyRetryMs);
    this.standbyTimer.unref?.();
  }

  private async deactivate(broken = false): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    const wasActive = this.active;
    this.active = false;
    if (this.rebuildCheckTimer) clearTimeout(this.rebuildCheckTimer);
    this.rebuildCheckTimer = undefined;
    this.caughtUpOnce = false;
    if (subscription) await subscription.stop().catch(() => undefined);
    const client = this.lockClient;
    this.lockClient = undefined;
    if (client) {
      if (!broken) await client.query('SELECT pg_advisory_unlock($1)', [lockKey(this.name)]).catch(() => undefined);
      client.release(broken);
    }
    if (wasActive) this.logger.info({ runner: this.name }, 'projections: inactive');
  }

  /** Rebuilds first when asked to, or when the projector set changed. */
  private async prepare(client: pg.PoolClient): Promise<Position | null> {
    const { rows } = await client.query<{ position: string | null; versions: Record<string, number>; rebuild_requested: boolean }>(
      `SELECT position, versions, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
      [this.name],
    );
    const row = rows[0];
    if (!row) throw new Error(`checkpoint row ${this.name} missing: call migrate() first`);
    if (row.rebuild_requested || !sameVersions(row.versions, this.versions)) {
      this.logger.info({ runner: this.name, stored: row.versions, wanted: this.versions }, 'projections: rebuilding read models');
      await this.resetReadModels(client);
      this.analyzeWhenCaughtUp = true;
      return null;
    }
    return row.position;
  }

  private async resetReadModels(client: pg.PoolClient): Promise<void> {
    await client.query('BEGIN');
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${READ_MODEL_SCHEMA} CASCADE`);
      await this.createReadModels(client);
      await client.query(
        `UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = NULL, versions = $2, rebuild_requested = false, updated_at = now() WHERE name = $1`,
        [this.name, JSON.stringify(this.versions)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async createReadModels(client: pg.PoolClient): Promise<void> {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${READ_MODEL_SCHEMA}`);
    for (const projector of this.projectors) await client.query(projector.setupSql);
  }

  private subscribe(from: Position | null): void {
    const eventTypes = [...this.byType.keys()];
    this.subscription = this.store.subscribeToAll({
      from,
      batchSize: this.batchSize,
      filter: { eventTypes },
      onBatch: (batch) => this.applyBatch(batch),
      onCaughtUp: () => {
        this.caughtUpOnce = true;
        if (this.analyzeWhenCaughtUp) {
          this.analyzeWhenCaughtUp = false;
          void this.analyzeReadModels();
        }
        this.emit('caughtUp', this.lastPosition);
      },
      onError: (error) => this.logger.warn({ err: error }, 'projections: subscription error, retrying'),
    });
  }

  /**
   * VACUUM ANALYZE every read-model table after a rebuild. The replay leaves
   * each ticket's earlier row versions dead (a ticket is written ~5 times),
   * still listed in the partial indexes such as `tickets_open`, and
   * autovacuum analyzed the tables at some point of the replay, when most
   * tickets were still open: at 1M tickets the planner expected 475,000 open
   * tickets instead of 2,900 and the open list went from 8 ms to 360 ms until
   * autovacuum came back. Outside the batch transactions; reads and writes go on.
   */
  private async analyzeReadModels(): Promise<void> {
    try {
      const { rows } = await this.pool.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`,
        [READ_MODEL_SCHEMA],
      );
      for (const { name } of rows) await this.pool.query(`VACUUM (ANALYZE) ${name}`);
      this.logger.info({ runner: this.name, tables: rows.length }, 'projections: read models vacuumed and analyzed after the rebuild');
    } catch (error) {
      this.logger.warn({ err: error }, 'projections: VACUUM ANALYZE after the rebuild failed (autovacuum will do it later)');
    }
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.sessionQueue.then(work, work);
    this.sessionQueue = run.catch(() => undefined);
    return run;
  }

  private applyBatch(batch: SubscriptionBatch): Promise<void> {
    return this.exclusive(() => this.applyBatchNow(batch));
  }

  private async applyBatchNow(batch: SubscriptionBatch): Promise<void> {
    const client = this.lockClient;
    if (!client || !this.active) throw new Error('projections: not active');
    // Batches still in flight while a rebuild restarts the subscription are dropped:
    // nothing was stored for them, and the new subscription starts from the reset checkpoint.
    if (this.rebuilding) return;
    const target = batch.checkpoint;
    if (target === null) return;
    const changed = new Set<string>();
    // BEGIN and the checkpoint lock in one round trip (simple protocol, the
    // runner's own name as a literal): a batch is a few statements, so each
    // round trip saved shows in the command latency and the rebuild rate.
    const name = client.escapeLiteral(this.name);
    try {
      const opened = (await client.query(
        `BEGIN; SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = ${name} FOR UPDATE`,
      )) as unknown as [QueryResult, QueryResult<{ position: string | null; rebuild_requested: boolean }>];
      const stored = opened[1].rows[0];
      if (!stored) throw new Error(`checkpoint row ${this.name} missing`);
      if (stored.rebuild_requested) {
        await client.query('ROLLBACK');
        this.restartWithRebuild();
        return;
      }
      const storedPosition = stored.position;
      if (storedPosition !== null && this.store.comparePositions(storedPosition, target) >= 0) {
        // Already applied (a redelivery after a crash or a takeover).
        await client.query('ROLLBACK');
        this.lastPosition = storedPosition;
        return;
      }
      // Set-based projectors get their share of the batch at the end (see Projector.applyBatch).
      const deferred = new Map<Projector, RecordedEvent[]>();
      for (const event of batch.events) {
        if (storedPosition !== null && this.store.comparePositions(event.position, storedPosition) <= 0) continue;
        for (const projector of this.byType.get(event.type) ?? []) {
          if (projector.applyBatch) {
            const list = deferred.get(projector);
            if (list) list.push(event);
            else deferred.set(projector, [event]);
            continue;
          }
          const ids = await projector.apply(client, event);
          if (ids) for (const id of ids) changed.add(id);
        }
      }
      for (const [projector, events] of deferred) {
        for (const id of (await projector.applyBatch?.(client, events)) ?? []) changed.add(id);
      }
      await client.query(`UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = ${client.escapeLiteral(target)}, updated_at = now() WHERE name = ${name}; COMMIT`);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    this.lastPosition = target;
    const advance: ProjectionAdvance = {
      runner: this.name,
      position: target,
      ids: [...changed].slice(0, MAX_IDS_PER_NOTIFY),
      truncated: changed.size > MAX_IDS_PER_NOTIFY,
    };
    this.emit('advanced', advance);
    // Outside the batch transaction on purpose: a pending NOTIFY serialises commits.
    if (batch.events.length > 0 || changed.size > 0) {
      await this.pool.query('SELECT pg_notify($1, $2)', [PROJECTION_CHANNEL, JSON.stringify(advance)]).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'projections: notify failed');
      });
    }
  }

  private restartWithRebuild(): void {
    const client = this.lockClient;
    if (!client || this.rebuilding) return;
    this.rebuilding = true;
    const subscription = this.subscription;
    this.subscription = undefined;
    this.caughtUpOnce = false;
    // Stop from outside the batch callback, then rebuild and resubscribe.
    setImmediate(() => {
      void (async () => {
        await subscription?.stop().catch(() => undefined);
        try {
          const from = await this.exclusive(() => this.prepare(client));
          this.lastPosition = from;
          this.rebuilding = false;
          if (this.active) this.subscribe(from);
        } catch (error) {
          this.rebuilding = false;
          this.logger.error({ err: error }, 'projections: rebuild failed');
          await this.deactivate(true);
          this.scheduleStandby();
        }
      })();
    });
  }
}

function sameVersions(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** A stable 64-bit advisory lock key for a name. */
export function lockKey(name: string): string {
  return createHash('sha256').update(`fsm:${name}`).digest().readBigInt64BE(0).toString();
}

export type { Projector, RecordedEvent };
