import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { QueryResult } from 'pg';
import { LeasedConsumer, isLeaseLost, leaseName, type EventStore, type LeaderSession, type Position, type RecordedEvent, type SubscriptionBatch } from '@fsm/eventstore';
import { RETIRED_SCHEMA, SHADOW_SCHEMA, projectorsInSchema, shadowRunnerName, tablesOf } from './blue-green.js';
import { withQuery } from './query-proxy.js';
import type { Projector, Replay } from './projector.js';
import { ReplayRows } from './replay-rows.js';
import { RUNNER_SCHEMA, STOPPED_PROJECTORS_DDL, readStoppedProjectors, type StoppedProjector } from './stopped-projectors.js';

export { RUNNER_SCHEMA };
/** Schema holding every live read-model table (a rebuild builds beside it: blue-green.ts). */
export const READ_MODEL_SCHEMA = 'rm';
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
  /** Names the checkpoint and the lease; one active runner per name. */
  name?: string;
  batchSize?: number;
  /** How often a standby runner tries to take over. */
  standbyRetryMs?: number;
  /** How long a runner that stops renewing its lease keeps it (LEADER_LEASE_MS, default 10 s). */
  leaseMs?: number;
  logger?: RunnerLogger;
  /**
   * Internal (blue-green.ts): this runner builds the shadow of a rebuild in
   * this schema, from the start of the log, and is swapped in by the live runner.
   */
  shadowSchema?: string;
}

/** A rebuild in progress in this process: the runner building the shadow, and what it rebuilds. */
interface ShadowBuild {
  runner: ProjectionRunner;
  /** The read models rebuilt (a version changed, or a reader of one; every one on request). */
  names: ReadonlySet<string>;
  swapping: boolean;
}

/** How long the swap waits for a lock on a live table before it gives up and tries again later. */
const SWAP_LOCK_TIMEOUT = '5s';
const SWAP_RETRY_MS = 2_000;

const MAX_IDS_PER_NOTIFY = 200;
/**
 * Events per batch when behind (a restart): larger batches mean fewer
 * statements per event. Live, a batch holds only what arrived meanwhile.
 * 2,000 replayed 25 % faster than 500 (docs/benchmarks.md).
 */
const DEFAULT_BATCH_SIZE = 2_000;
/**
 * Events per batch of a blue/green rebuild: the folded projectors write a
 * ticket once per batch whatever its number of events, so a batch spanning
 * days of history writes most tickets once (at 100,000 tickets, Postgres
 * spent 16 s with batches of 2,000 and 13 s with 10,000). A batch is one
 * transaction of about half a second, the longest a live command then waits
 * for its read models (a subscriber reads below the oldest running
 * transaction, docs/event-store.md). The shadow keeps two batches in flight
 * (applyPipelined): at 1M tickets, batches of 10,000 peaked at 491 MB of
 * memory, 8,000 at 453 MB for 7 % more time (docs/benchmarks.md).
 */
const REBUILD_BATCH_SIZE = 8_000;

/** SQLSTATE of a statement sent after another failed in the same transaction. */
const IN_FAILED_TRANSACTION = '25P02';

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

/** The transaction of a pipelined batch: its statements go once `ready` (the batch before committed, this one's opened). */
function afterCommit(client: pg.PoolClient, ready: Promise<unknown>): pg.PoolClient {
  return withQuery(client, (query, ...args) => ready.then(() => query(...args)));
}

const silentLogger: RunnerLogger = { info() {}, warn() {}, error() {} };

/**
 * Tries of one projector on one event, each in its own savepoint, before it is
 * stopped there: a failure that comes back every time is the event's, not luck.
 */
const ATTEMPTS_BEFORE_STOP = 3;
/** Longest error text kept in proj.stopped_projectors (a message can quote a whole row). */
const MAX_ERROR_LENGTH = 2_000;

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

/** A projector stopped while applying a batch, and the checkpoint it keeps. */
interface BatchStop {
  projector: Projector;
  event: RecordedEvent;
  error: unknown;
  /** Set when it stopped because a read model it reads did. */
  stoppedWith: Projector | null;
  checkpoint: Position | null;
}

type BatchOutcome =
  | { kind: 'rebuild' }
  | { kind: 'already-applied'; position: Position | null }
  | {
      kind: 'applied';
      position: Position;
      changed: Set<string>;
      stops: { stopped: StoppedProjector; error: unknown }[];
      resumed: StoppedProjector[];
      /** Projectors that were behind `position` and reached it in this batch. */
      caughtUp: string[];
      /** The lowest checkpoint of the projectors still applied: nothing below it is needed any more. */
      lowestRunning: Position | null;
      /** Every read model is at `position` (none stopped or behind): a replay may go on pipelined. */
      level: boolean;
    };

/**
 * A replay applied two batches at a time (`applyPipelined`): the last batch
 * started, where the checkpoint stands once it commits, its commit and its
 * whole handling, and the rows the batches wrote (replay-rows.ts).
 */
interface Pipeline {
  head: Position;
  committed: Promise<unknown>;
  done: Promise<unknown>;
  replay: Replay;
}

/** proj.checkpoints as a batch reads it: where every running projector is, and the ones behind. */
interface StoredCheckpoint {
  position: Position | null;
  /** Only the projectors behind `position` (stopped, or catching up after a restart): a sparse map. */
  behind: Readonly<Record<string, Position | null>>;
}

/**
 * Reads the global log and applies every projector of a batch and the
 * checkpoints in ONE transaction (compare-and-set on the stored row), so each
 * event reaches each read model exactly once, whichever process or crash is
 * involved. A lease (LeasedConsumer, docs/operations.md) makes one runner per
 * name active; others wait as standbys and take over when it expires or its
 * holder's session ends, and every batch is fenced by that lease.
 *
 * Each projector has its own checkpoint. `position` (proj.checkpoints) is where
 * every running projector is, and what read-your-writes waits for;
 * `projector_positions` lists only the projectors behind it. A projector that
 * fails on an event every time it is tried is stopped just before it, recorded
 * in proj.stopped_projectors, and left alone by this process: the other read
 * models, and `position`, go on. At the next start, or on `requestRetry()`, it
 * is tried again from its own checkpoint.
 */
export class ProjectionRunner extends EventEmitter {
  readonly name: string;
  private readonly pool: pg.Pool;
  private readonly store: EventStore;
  private readonly projectors: readonly Projector[];
  private readonly byType = new Map<string, Projector[]>();
  /** Per projector, those reading its tables, directly or through another: they stop with it. */
  private readonly readers = new Map<Projector, Projector[]>();
  /**
   * Readers and the sources they read (Projector.readsFrom): applied event by
   * event, in log order across them, so a reader copies its sources as they
   * stood at its event whatever the batch boundaries (a live batch of 3 and a
   * rebuild batch of 2,000 then leave the same rows).
   */
  private readonly interleaved = new Set<Projector>();
  private readonly logger: RunnerLogger;
  private readonly consumer: LeasedConsumer;
  private lastPosition: Position | null = null;
  private caughtUpOnce = false;
  private rebuildCheckTimer: NodeJS.Timeout | undefined;
  /** Serialises work on the lock session (batches, rebuilds): one transaction at a time. */
  private sessionQueue: Promise<unknown> = Promise.resolve();
  /** Read models this process stopped: not applied again until a restart or a retry. */
  private readonly stoppedHere = new Map<string, StoppedProjector>();
  /** The rows of proj.stopped_projectors for this runner: deleted once their projector gets past the event. */
  private readonly recordedStops = new Map<string, StoppedProjector>();
  /** Schema of the tables this runner writes: `rm`, or the shadow's. */
  private readonly schema: string;
  private readonly options: ProjectionRunnerOptions;
  /** The rebuild in progress (live runner only). */
  private shadow: ShadowBuild | null = null;
  /**
   * Read models whose version changed, rebuilt in the shadow: their live tables
   * are the previous version's, which this code may not write. They are not
   * applied (screens read them as they stood) until the swap.
   */
  private frozen = new Set<string>();
  /** Set by a first build in place (a new database): its tables are vacuumed and analyzed once caught up. */
  private analyzeWhenCaughtUp = false;
  /** The replay's batches in flight, when it is applied pipelined (`applyPipelined`). */
  private pipeline: Pipeline | null = null;

  constructor(options: ProjectionRunnerOptions) {
    super();
    this.name = options.name ?? 'read-models';
    this.pool = options.pool;
    this.store = options.store;
    this.projectors = options.projectors;
    this.logger = options.logger ?? silentLogger;
    this.options = options;
    this.schema = options.shadowSchema ?? READ_MODEL_SCHEMA;
    const names = new Set<string>();
    for (const projector of this.projectors) {
      if (names.has(projector.name)) throw new Error(`projector ${projector.name} registered twice`);
      // Projectors are applied in this order: a reader after what it reads sees its rows (Projector.readsFrom).
      for (const source of projector.readsFrom ?? []) {
        if (!names.has(source)) throw new Error(`projector ${projector.name} reads ${source}: register ${source} before it, in the same runner`);
      }
      names.add(projector.name);
      for (const type of projector.handles) {
        const list = this.byType.get(type) ?? [];
        list.push(projector);
        this.byType.set(type, list);
      }
    }
    for (const projector of this.projectors) {
      const sources = projector.readsFrom ?? [];
      if (sources.length > 0) this.interleaved.add(projector);
      for (const source of this.projectors) if (sources.includes(source.name)) this.interleaved.add(source);
    }
    for (const projector of this.projectors) {
      const found = new Set<string>([projector.name]);
      for (const reader of this.projectors) {
        if ((reader.readsFrom ?? []).some((source) => found.has(source))) found.add(reader.name);
      }
      found.delete(projector.name);
      this.readers.set(
        projector,
        this.projectors.filter((reader) => found.has(reader.name)),
      );
    }
    this.consumer = new LeasedConsumer({
      pool: this.pool,
      store: this.store,
      lease: leaseName('projections', this.name),
      label: 'projections',
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
      // A shadow keeps two batches in flight itself (applyPipelined).
      readAhead: options.shadowSchema === undefined,
      eventTypes: [...this.byType.keys()],
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      ...(options.standbyRetryMs !== undefined ? { standbyRetryMs: options.standbyRetryMs } : {}),
      logger: this.logger,
      onLeader: () => this.scheduleRebuildCheck(),
      prepare: (session) =>
        this.exclusive(async () => {
          await this.settlePipeline();
          return this.prepare(session.client);
        }),
      handle: (batch, session) => this.applyBatch(batch, session),
      onCaughtUp: () => {
        // Not caught up while a rebuild is still to be swapped in: the swap restarts the subscription.
        if (this.shadow) return;
        if (this.analyzeWhenCaughtUp) {
          this.analyzeWhenCaughtUp = false;
          void this.analyzeReadModels();
        }
        this.caughtUpOnce = true;
        this.emit('caughtUp', this.lastPosition);
      },
      onStepDown: async () => {
        // The batches still in flight end (commit or fail) before the session goes.
        await this.settlePipeline();
        void this.stopShadow();
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

  /** Where every running read model is: what read-your-writes waits for. */
  get position(): Position | null {
    return this.lastPosition;
  }

  get hasCaughtUp(): boolean {
    return this.caughtUpOnce;
  }

  /** Read models this process stopped on an event they could not apply. */
  get stoppedProjectors(): StoppedProjector[] {
    return [...this.stoppedHere.values()];
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
          updated_at timestamptz NOT NULL DEFAULT now(),
          projector_positions jsonb NOT NULL DEFAULT '{}'::jsonb,
          retry_requested boolean NOT NULL DEFAULT false
        )`);
        // A deployment from before per-projector checkpoints: an empty map puts every
        // projector at the stored position, so nothing is replayed. ALTER only when
        // needed: it would wait for the active runner's batch at every start.
        const { rows } = await client.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'checkpoints'`,
          [RUNNER_SCHEMA],
        );
        const columns = new Set(rows.map((row) => row.column_name));
        if (!columns.has('projector_positions')) {
          await client.query(`ALTER TABLE ${RUNNER_SCHEMA}.checkpoints ADD COLUMN IF NOT EXISTS projector_positions jsonb NOT NULL DEFAULT '{}'::jsonb`);
        }
        if (!columns.has('retry_requested')) {
          await client.query(`ALTER TABLE ${RUNNER_SCHEMA}.checkpoints ADD COLUMN IF NOT EXISTS retry_requested boolean NOT NULL DEFAULT false`);
        }
        await client.query(STOPPED_PROJECTORS_DDL);
        await client.query(`INSERT INTO ${RUNNER_SCHEMA}.checkpoints (name, versions) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
          this.name,
          JSON.stringify(this.versions),
        ]);
        // A read model whose version changed keeps its previous tables until the rebuild swaps
        // the new ones in: its new setupSql may not apply to them (an index on a new column).
        // A read model never built before gets its (empty) tables at once, as before.
        const { rows: stored } = await client.query<{ versions: Record<string, number> }>(`SELECT versions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [this.name]);
        const built = stored[0]?.versions ?? {};
        const keepPrevious = (projector: Projector) => !this.options.shadowSchema && Object.hasOwn(built, projector.name) && built[projector.name] !== projector.version;
        await this.createReadModels(client, (projector) => !keepPrevious(projector));
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [lockKey('migrate')]);
      }
    } finally {
      client.release();
    }
  }

  /** Starts applying, or waits as a standby while another runner holds the lease. */
  async start(): Promise<void> {
    await this.consumer.start();
  }

  async stop(): Promise<void> {
    await this.stopShadow();
    await this.consumer.stop();
  }

  /**
   * Asks for a rebuild. The active runner (here or in another process) builds
   * every read model again beside the live ones and swaps them in once caught
   * up (blue-green.ts); `rebuild_requested` stays set until that swap. When no
   * runner is active, the next one to start does it.
   */
  async requestRebuild(): Promise<void> {
    await this.pool.query(`UPDATE ${RUNNER_SCHEMA}.checkpoints SET rebuild_requested = true WHERE name = $1`, [this.name]);
    await this.pool.query('SELECT pg_notify($1, $2)', [PROJECTION_CHANNEL, JSON.stringify({ runner: this.name, rebuild: true })]);
  }

  /**
   * Asks the active runner (here or in another process) to try its stopped
   * read models again from their own checkpoints, without a restart; when no
   * runner is active, the next one to start does it anyway. Returns the
   * database's time of the request.
   */
  async requestRetry(): Promise<Date> {
    const { rows } = await this.pool.query<{ at: Date }>(
      `UPDATE ${RUNNER_SCHEMA}.checkpoints SET retry_requested = true WHERE name = $1 RETURNING now() AS at`,
      [this.name],
    );
    if (!rows[0]) throw new Error(`checkpoint row ${this.name} missing: call migrate() first`);
    return rows[0].at;
  }

  /** Resolves once this runner is active and has reached the head of the log. */
  async waitUntilCaughtUp(): Promise<void> {
    if (this.caughtUpOnce && this.isActive) return;
    await new Promise<void>((resolve) => {
      const onCaughtUp = () => {
        this.off('caughtUp', onCaughtUp);
        resolve();
      };
      this.on('caughtUp', onCaughtUp);
    });
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
            if ((rows[0]?.rebuild_requested && !this.shadow) || rows[0]?.retry_requested) this.restartSubscription();
          },
          () => undefined,
        )
        .finally(() => {
          if (this.isActive) this.scheduleRebuildCheck();
        });
    }, 1_000);
    this.rebuildCheckTimer.unref?.();
  }

  /**
   * Rebuilds first when asked to, or when the projector set changed. Every
   * stopped read model is tried again: the subscription starts from the lowest
   * projector checkpoint, and each projector skips what it already applied.
   */
  private async prepare(client: pg.PoolClient): Promise<Position | null> {
    const { rows } = await client.query<{
      position: string | null;
      versions: Record<string, number>;
      rebuild_requested: boolean;
      projector_positions: Record<string, Position | null>;
    }>(`SELECT position, versions, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [this.name]);
    const row = rows[0];
    if (!row) throw new Error(`checkpoint row ${this.name} missing: call migrate() first`);
    let stored: StoredCheckpoint = { position: row.position, behind: row.projector_positions };
    if (this.options.shadowSchema) {
      // The shadow's own tables: nothing reads them before the swap.
      if (row.rebuild_requested || !sameVersions(row.versions, this.versions)) {
        await this.resetReadModels(client);
        stored = { position: null, behind: {} };
      }
    } else if (row.position === null) {
      // Nothing was ever applied here (a new database): no screen reads these tables yet, so
      // they are built in place, as fast as a replay goes, rather than beside themselves.
      if (row.rebuild_requested || !sameVersions(row.versions, this.versions)) {
        await this.stopShadow();
        await this.dropShadow(client, shadowRunnerName(this.name));
        await this.resetReadModels(client);
        stored = { position: null, behind: {} };
        this.frozen = new Set();
        this.analyzeWhenCaughtUp = true;
      }
    } else {
      await this.planRebuild(client, row.versions, row.rebuild_requested);
    }
    await client.query(`UPDATE ${RUNNER_SCHEMA}.checkpoints SET retry_requested = false WHERE name = $1 AND retry_requested`, [this.name]);
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1 AND NOT (projector = ANY($2::text[]))`, [
      this.name,
      this.projectors.map((projector) => projector.name),
    ]);
    this.stoppedHere.clear();
    this.recordedStops.clear();
    for (const stopped of await readStoppedProjectors(client, this.name)) {
      this.recordedStops.set(stopped.projector, stopped);
      this.logger.warn(
        { runner: this.name, projector: stopped.projector, position: stopped.position, from: this.checkpointOf(stored, stopped.projector) },
        'projections: trying a stopped read model again from its own checkpoint',
      );
    }
    this.lastPosition = stored.position;
    let from = stored.position;
    for (const projector of this.projectors) {
      if (this.frozen.has(projector.name)) continue;
      const own = this.checkpointOf(stored, projector.name);
      if (this.compare(own, from) < 0) from = own;
    }
    return from;
  }

  /** The read models whose stored version differs from this code's (or that were never built). */
  private changedSince(stored: Record<string, number>): Set<string> {
    return new Set(this.projectors.filter((projector) => stored[projector.name] !== projector.version).map((projector) => projector.name));
  }

  /**
   * Blue/green: when asked to rebuild (all read models) or when versions
   * changed (those read models and their readers), starts or resumes the
   * build of the shadow beside the live tables; the swap happens once it has
   * caught up (`swapWhenReady`). A build interrupted (a restart, a takeover)
   * resumes from the shadow's checkpoint.
   */
  private async planRebuild(client: pg.PoolClient, storedVersions: Record<string, number>, requested: boolean): Promise<void> {
    const changed = this.changedSince(storedVersions);
    const wanted = new Set<string>(requested ? this.projectors.map((projector) => projector.name) : []);
    for (const projector of this.projectors) {
      if (!changed.has(projector.name)) continue;
      wanted.add(projector.name);
      for (const reader of this.readers.get(projector) ?? []) wanted.add(reader.name);
    }
    // Changed read models are not applied to their previous tables; a requested rebuild of unchanged ones keeps them live.
    this.frozen = changed.size > 0 ? new Set(wanted) : new Set();
    // A rebuilt reader is rebuilt with its sources (small tables: clients, sites, métiers), so it copies
    // them as they stood at each event, as the live runner gives them, not as they stand at the head.
    for (let grew = true; grew; ) {
      grew = false;
      for (const projector of this.projectors) {
        if (!wanted.has(projector.name)) continue;
        for (const source of projector.readsFrom ?? []) {
          if (!wanted.has(source)) {
            wanted.add(source);
            grew = true;
          }
        }
      }
    }
    const shadowName = shadowRunnerName(this.name);
    if (wanted.size === 0) {
      await this.stopShadow();
      await this.dropShadow(client, shadowName);
      return;
    }
    if (this.shadow && sameSet(this.shadow.names, wanted)) return;
    await this.stopShadow();
    const projectors = this.projectors.filter((projector) => wanted.has(projector.name));
    const wantedVersions = Object.fromEntries(projectors.map((projector) => [projector.name, projector.version]));
    const existing = await client.query<{ versions: Record<string, number> }>(`SELECT versions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [shadowName]);
    const resumed = existing.rows[0] !== undefined && sameVersions(existing.rows[0].versions, wantedVersions);
    if (!resumed) await this.dropShadow(client, shadowName);
    this.logger.info(
      { runner: this.name, readModels: [...wanted], resumed, stored: storedVersions, wanted: this.versions },
      'projections: rebuilding read models beside the live ones (blue/green)',
    );
    const runner = new ProjectionRunner({
      pool: this.pool,
      store: this.store,
      projectors: projectorsInSchema(projectors, SHADOW_SCHEMA),
      name: shadowName,
      shadowSchema: SHADOW_SCHEMA,
      logger: this.logger,
      batchSize: this.options.batchSize ?? REBUILD_BATCH_SIZE,
      ...(this.options.leaseMs !== undefined ? { leaseMs: this.options.leaseMs } : {}),
      ...(this.options.standbyRetryMs !== undefined ? { standbyRetryMs: this.options.standbyRetryMs } : {}),
    });
    const shadow: ShadowBuild = { runner, names: wanted, swapping: false };
    this.shadow = shadow;
    runner.on('caughtUp', () => void this.swapWhenReady(shadow));
    await runner.migrate();
    void runner.start().catch((error: unknown) => this.logger.warn({ err: error }, 'projections: the rebuild could not start; retried at the next restart'));
  }

  private async dropShadow(client: pg.PoolClient, shadowName: string): Promise<void> {
    await client.query(`DROP SCHEMA IF EXISTS ${SHADOW_SCHEMA} CASCADE`);
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [shadowName]);
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1`, [shadowName]);
  }

  private async stopShadow(): Promise<void> {
    const shadow = this.shadow;
    this.shadow = null;
    if (shadow) await shadow.runner.stop().catch(() => undefined);
  }

  /**
   * Once the shadow has caught up: vacuums and analyzes its tables (the
   * replay left dead rows and stale statistics), then, between two live
   * batches, waits until the shadow holds at least what the live read models
   * hold, stops it and swaps its tables in, in one transaction.
   */
  private async swapWhenReady(shadow: ShadowBuild): Promise<void> {
    if (shadow.swapping || this.shadow !== shadow) return;
    shadow.swapping = true;
    let swapped = false;
    try {
      await shadow.runner.createQueryIndexes();
      // Statistics before the swap (the planner's first plans on the new tables); the VACUUM,
      // which only sets the visibility map by then (the screens' indexes were built after the
      // replay, with no dead row in them), runs once they are live, beside the screens.
      await this.analyzeReadModels(SHADOW_SCHEMA, { vacuum: false });
      swapped = await this.exclusive(async () => {
        const session = this.consumer.session;
        if (!session || this.shadow !== shadow) return false;
        const shadowName = shadowRunnerName(this.name);
        const positions = async () => {
          const { rows } = await session.client.query<{ name: string; position: string | null }>(
            `SELECT name, position FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = ANY($1::text[])`,
            [[this.name, shadowName]],
          );
          return { live: rows.find((row) => row.name === this.name)?.position ?? null, next: rows.find((row) => row.name === shadowName)?.position ?? null };
        };
        // No live batch meanwhile: the shadow only has the last few events to apply.
        const deadline = Date.now() + 30_000;
        for (;;) {
          const { live, next } = await positions();
          if (this.compare(next, live) >= 0) break;
          if (Date.now() > deadline) return false;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await shadow.runner.stop();
        return this.swap(session, shadow);
      });
    } catch (error) {
      this.logger.warn({ err: error, runner: this.name }, 'projections: swapping the rebuilt read models in failed; tried again shortly');
    }
    if (swapped) {
      this.shadow = null;
      this.frozen = new Set();
      this.logger.info({ runner: this.name, readModels: [...shadow.names] }, 'projections: rebuilt read models swapped in');
      // Every screen refetches once, from the new tables.
      await this.notify({ runner: this.name, resync: true });
      this.restartSubscription();
      void this.analyzeReadModels(READ_MODEL_SCHEMA);
      return;
    }
    if (this.shadow !== shadow) return;
    // Not yet: build on (the shadow is started again if the swap stopped it) and try again.
    shadow.swapping = false;
    if (!shadow.runner.isActive) void shadow.runner.start().catch(() => undefined);
    setTimeout(() => void this.swapWhenReady(shadow), SWAP_RETRY_MS).unref?.();
  }

  /** The swap itself: one transaction, fenced by the lease. */
  private async swap(session: LeaderSession, shadow: ShadowBuild): Promise<boolean> {
    const client = session.client;
    const shadowName = shadowRunnerName(this.name);
    type Row = { position: Position | null; versions: Record<string, number>; rebuild_requested: boolean; projector_positions: Record<string, Position | null> };
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL lock_timeout = '${SWAP_LOCK_TIMEOUT}'`);
      const read = async (name: string) =>
        (
          await client.query<Row>(
            `SELECT position, versions, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1 FOR UPDATE`,
            [name],
          )
        ).rows[0];
      const live = await read(this.name);
      const next = await read(shadowName);
      if (!live || !next || this.compare(next.position, live.position) < 0) {
        await client.query('ROLLBACK');
        return false;
      }
      const rebuilt = this.projectors.filter((projector) => shadow.names.has(projector.name));
      await client.query(`DROP SCHEMA IF EXISTS ${RETIRED_SCHEMA} CASCADE; CREATE SCHEMA ${RETIRED_SCHEMA}`);
      for (const table of rebuilt.flatMap(tablesOf)) {
        await client.query(`ALTER TABLE IF EXISTS ${READ_MODEL_SCHEMA}.${table} SET SCHEMA ${RETIRED_SCHEMA}`);
        await client.query(`ALTER TABLE ${SHADOW_SCHEMA}.${table} SET SCHEMA ${READ_MODEL_SCHEMA}`);
      }
      await client.query(`DROP SCHEMA ${RETIRED_SCHEMA} CASCADE; DROP SCHEMA ${SHADOW_SCHEMA} CASCADE`);
      // The rebuilt read models are where the shadow's checkpoints are (at or past the live position).
      const nextStored: StoredCheckpoint = { position: next.position, behind: next.projector_positions };
      const behind: Record<string, Position | null> = {};
      for (const projector of this.projectors) {
        const at = shadow.names.has(projector.name) ? this.checkpointOf(nextStored, projector.name) : this.checkpointOf({ position: live.position, behind: live.projector_positions }, projector.name);
        if (this.compare(at, live.position) !== 0) behind[projector.name] = at;
      }
      const versions = { ...live.versions, ...Object.fromEntries(rebuilt.map((projector) => [projector.name, projector.version])) };
      // A rebuild asked for meanwhile of read models not in this one is left asked for.
      const requested = live.rebuild_requested && !this.projectors.every((projector) => shadow.names.has(projector.name));
      await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1 AND projector = ANY($2::text[])`, [this.name, [...shadow.names]]);
      await client.query(`UPDATE ${RUNNER_SCHEMA}.stopped_projectors SET runner = $1 WHERE runner = $2`, [this.name, shadowName]);
      await client.query(`DELETE FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [shadowName]);
      await client.query(session.fence);
      await client.query(
        `UPDATE ${RUNNER_SCHEMA}.checkpoints SET projector_positions = $2::jsonb, versions = $3::jsonb, rebuild_requested = $4, updated_at = now() WHERE name = $1`,
        [this.name, JSON.stringify(behind), JSON.stringify(versions), requested],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** The shadow's start from scratch: its own schema only. */
  private async resetReadModels(client: pg.PoolClient): Promise<void> {
    await client.query('BEGIN');
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`);
      await this.createReadModels(client);
      // The stopped read models' rows stay: each goes once its projector gets past that event again.
      await client.query(
        `UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = NULL, projector_positions = '{}'::jsonb, versions = $2, rebuild_requested = false, updated_at = now() WHERE name = $1`,
        [this.name, JSON.stringify(this.versions)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async createReadModels(client: pg.PoolClient, which: (projector: Projector) => boolean = () => true): Promise<void> {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
    for (const projector of this.projectors) {
      if (!which(projector)) continue;
      await client.query(projector.setupSql);
      // A shadow creates the screens' indexes once it has caught up (createQueryIndexes).
      if (!this.options.shadowSchema && projector.queryIndexesSql) await client.query(projector.queryIndexesSql);
    }
  }

  /** A shadow that has caught up: the indexes only the screens read (Projector.queryIndexesSql), before it is analyzed and swapped in. */
  async createQueryIndexes(): Promise<void> {
    for (const projector of this.projectors) if (projector.queryIndexesSql) await this.pool.query(projector.queryIndexesSql);
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
  private async analyzeReadModels(schema = this.schema, { vacuum = true } = {}): Promise<void> {
    const statement = vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE';
    try {
      const { rows } = await this.pool.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`,
        [schema],
      );
      for (const { name } of rows) await this.pool.query(`${statement} ${name}`);
      this.logger.info({ runner: this.name, tables: rows.length, statement }, 'projections: read models analyzed after the rebuild');
    } catch (error) {
      this.logger.warn({ err: error }, `projections: ${statement} after the rebuild failed (autovacuum will do it later)`);
    }
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.sessionQueue.then(work, work);
    this.sessionQueue = run.catch(() => undefined);
    return run;
  }

  private applyBatch(batch: SubscriptionBatch, session: LeaderSession): Promise<void> {
    return this.exclusive(() => (this.pipeline ? this.applyPipelined(batch, session, this.pipeline) : this.applyBatchNow(batch, session)));
  }

  private async applyBatchNow(batch: SubscriptionBatch, session: LeaderSession): Promise<void> {
    if (this.consumer.session !== session) throw new Error('projections: not active');
    // Batches still in flight while a rebuild or a retry restarts the subscription are dropped:
    // nothing was stored for them, and the new subscription starts from the stored checkpoints.
    if (this.consumer.restarting) return;
    const target = batch.checkpoint;
    if (target === null) return;
    let outcome: BatchOutcome;
    try {
      outcome = await this.runBatch(session, batch, target, false);
    } catch (error) {
      // A transient failure, a lost session or lease: the subscription retries the batch whole (or stops).
      // Anything else may be one projector on one event: find it, and let the others go on.
      if (isTransientFailure(error) || isLeaseLost(error) || this.consumer.session !== session) throw error;
      this.logger.warn({ err: error, runner: this.name }, 'projections: a batch failed; applying it event by event, projector by projector, to find the cause');
      outcome = await this.runBatch(session, batch, target, true);
    }
    await this.afterBatch(outcome, batch, target);
    // A rebuild's shadow, which nobody reads before the swap, replays two batches at a time.
    if (outcome.kind === 'applied' && outcome.level && !batch.caughtUp && this.options.shadowSchema !== undefined && this.stoppedHere.size === 0) {
      this.pipeline = { head: outcome.position, committed: Promise.resolve(), done: Promise.resolve(), replay: { rows: new ReplayRows() } };
    }
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
  private async applyPipelined(batch: SubscriptionBatch, session: LeaderSession, pipeline: Pipeline): Promise<void> {
    if (this.consumer.session !== session) throw new Error('projections: not active');
    if (this.consumer.restarting) return;
    const target = batch.checkpoint;
    if (target === null) return;
    const committed = this.runPipelinedBatch(session, batch, target, pipeline);
    const done = committed.then((outcome) => this.afterBatch(outcome, batch, target));
    committed.catch(() => undefined);
    done.catch(() => undefined);
    this.pipeline = { head: target, committed, done, replay: pipeline.replay };
    try {
      await pipeline.done;
      // The head of the log: nothing left in flight when the subscription says it caught up.
      if (batch.caughtUp) await done;
    } catch (error) {
      await this.settlePipeline();
      if (isLeaseLost(error) || this.consumer.session !== session) throw error;
      this.logger.warn({ err: error, runner: this.name }, 'projections: a pipelined batch failed; the replay goes on from the stored checkpoints');
      this.restartSubscription();
    }
  }

  /** One pipelined batch: its transaction opens once the batch before has committed. */
  private async runPipelinedBatch(session: LeaderSession, batch: SubscriptionBatch, target: Position, pipeline: Pipeline): Promise<BatchOutcome> {
    const client = session.client;
    const name = client.escapeLiteral(this.name);
    let opened = false;
    const ready = pipeline.committed.then(async () => {
      opened = true;
      const result = (await client.query(
        `BEGIN; SELECT position, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = ${name} FOR UPDATE`,
      )) as unknown as [QueryResult, QueryResult<{ position: string | null; rebuild_requested: boolean; projector_positions: Record<string, Position | null> }>];
      const row = result[1].rows[0];
      if (!row || row.rebuild_requested || this.compare(row.position, pipeline.head) !== 0 || Object.keys(row.projector_positions).length > 0) {
        throw new Error(`projections: ${this.name}'s checkpoint is not where the pipelined batch expected it`);
      }
    });
    ready.catch(() => undefined);
    try {
      const changed = new Set<string>();
      await this.applyTogether(afterCommit(client, ready), batch.events, new Set(this.projectors), { position: pipeline.head, behind: {} }, changed, pipeline.replay);
      await ready;
      await client.query(
        `${session.fence}; UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = ${client.escapeLiteral(target)}, projector_positions = '{}'::jsonb, updated_at = now() WHERE name = ${name}; COMMIT`,
      );
      return { kind: 'applied', position: target, changed, stops: [], resumed: [], caughtUp: [], lowestRunning: target, level: true };
    } catch (error) {
      if (opened) await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** Waits for the pipelined batches in flight, and applies one batch at a time from then on; false when one failed. */
  private async settlePipeline(): Promise<boolean> {
    const pipeline = this.pipeline;
    if (!pipeline) return true;
    this.pipeline = null;
    return pipeline.done.then(
      () => true,
      () => false,
    );
  }

  /** What follows a batch's transaction: the runner's state, the logs, and the screens' notification. */
  private async afterBatch(outcome: BatchOutcome, batch: SubscriptionBatch, target: Position): Promise<void> {
    if (outcome.kind === 'rebuild') return this.restartSubscription();
    if (outcome.kind === 'already-applied') {
      this.lastPosition = outcome.position;
      return;
    }
    for (const { stopped, error } of outcome.stops) {
      this.stoppedHere.set(stopped.projector, stopped);
      this.recordedStops.set(stopped.projector, stopped);
      this.logger.error(
        { err: error, ...stopped },
        stopped.stoppedWith
          ? `projections: read model ${stopped.projector} stopped with ${stopped.stoppedWith}, whose tables it reads; the others go on (docs/operations.md)`
          : `projections: read model ${stopped.projector} stopped on an event it cannot apply; the others go on (docs/operations.md)`,
      );
    }
    if (outcome.stops.length > 0) this.skipWhatNoOneNeeds(target, outcome.lowestRunning);
    for (const resumed of outcome.resumed) {
      this.recordedStops.delete(resumed.projector);
      this.logger.info({ runner: this.name, projector: resumed.projector, position: resumed.position }, `projections: read model ${resumed.projector} got past the event it had stopped on`);
    }
    this.lastPosition = outcome.position;
    const changed = outcome.changed;
    const advance: ProjectionAdvance = {
      runner: this.name,
      position: outcome.position,
      ids: [...changed].slice(0, MAX_IDS_PER_NOTIFY),
      truncated: changed.size > MAX_IDS_PER_NOTIFY,
    };
    this.emit('advanced', advance);
    // Outside the batch transaction on purpose: a pending NOTIFY serialises commits.
    if (batch.events.length > 0 || changed.size > 0) await this.notify(advance);
    if (outcome.caughtUp.length > 0) {
      this.logger.info({ runner: this.name, projectors: outcome.caughtUp, position: outcome.position }, 'projections: read models caught up with the others');
      // Their rows changed below the position screens already saw: every screen refetches once.
      await this.notify({ runner: this.name, resync: true });
    }
  }

  private async notify(payload: ProjectionAdvance | { runner: string; resync: true }): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [PROJECTION_CHANNEL, JSON.stringify(payload)]).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'projections: notify failed');
    });
  }

  /**
   * One batch in one transaction, under the checkpoint row's lock: the
   * projectors together (`isolate` false), or each event and projector in its
   * own savepoint, stopping those that fail (`isolate` true, after the first
   * way failed).
   */
  private async runBatch(session: LeaderSession, batch: SubscriptionBatch, target: Position, isolate: boolean): Promise<BatchOutcome> {
    const client = session.client;
    // BEGIN and the checkpoint lock in one round trip (simple protocol, the
    // runner's own name as a literal): a batch is a few statements, so each
    // round trip saved shows in the command latency and the rebuild rate.
    const name = client.escapeLiteral(this.name);
    try {
      const opened = (await client.query(
        `BEGIN; SELECT position, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = ${name} FOR UPDATE`,
      )) as unknown as [QueryResult, QueryResult<{ position: string | null; rebuild_requested: boolean; projector_positions: Record<string, Position | null> }>];
      const row = opened[1].rows[0];
      if (!row) throw new Error(`checkpoint row ${this.name} missing`);
      if (row.rebuild_requested && !this.shadow) {
        await client.query('ROLLBACK');
        return { kind: 'rebuild' };
      }
      const stored: StoredCheckpoint = { position: row.position, behind: row.projector_positions };
      const running = new Set(this.projectors.filter((projector) => !this.stoppedHere.has(projector.name) && !this.frozen.has(projector.name)));
      if (this.compare(stored.position, target) >= 0 && [...running].every((projector) => this.compare(this.checkpointOf(stored, projector.name), target) >= 0)) {
        // Already applied (a redelivery after a crash or a takeover).
        await client.query('ROLLBACK');
        return { kind: 'already-applied', position: stored.position };
      }
      const changed = new Set<string>();
      const stops = isolate ? await this.applyOneByOne(client, batch.events, running, stored, changed) : await this.applyTogether(client, batch.events, running, stored, changed);
      const position = this.compare(stored.position, target) > 0 ? stored.position! : target;
      const stoppedNow = new Map(stops.map((stop) => [stop.projector, stop]));
      const behind: Record<string, Position | null> = {};
      const checkpoints = new Map<string, Position | null>();
      for (const projector of this.projectors) {
        const before = this.checkpointOf(stored, projector.name);
        const stop = stoppedNow.get(projector);
        const after = stop ? stop.checkpoint : running.has(projector) && this.compare(before, target) < 0 ? target : before;
        checkpoints.set(projector.name, after);
        if (this.compare(after, position) !== 0) behind[projector.name] = after;
      }
      const resumed = [...this.recordedStops.values()].filter((recorded) => {
        const projector = this.projectors.find((candidate) => candidate.name === recorded.projector);
        return projector !== undefined && running.has(projector) && !stoppedNow.has(projector) && this.compare(checkpoints.get(projector.name) ?? null, recorded.position) >= 0;
      });
      const recorded = stops.length > 0 ? await this.recordStops(client, stops) : [];
      if (resumed.length > 0) {
        await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1 AND projector = ANY($2::text[])`, [
          this.name,
          resumed.map((stopped) => stopped.projector),
        ]);
      }
      // Fenced: a runner that lost its lease meanwhile (paused, cut off) commits nothing.
      await client.query(
        `${session.fence}; UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = ${client.escapeLiteral(position)}, projector_positions = ${client.escapeLiteral(JSON.stringify(behind))}::jsonb, updated_at = now() WHERE name = ${name}; COMMIT`,
      );
      const caughtUp = Object.keys(stored.behind).filter((projector) => checkpoints.has(projector) && !Object.hasOwn(behind, projector));
      const lowestRunning = this.lowest([...running].filter((projector) => !stoppedNow.has(projector)).map((projector) => checkpoints.get(projector.name) ?? null));
      return { kind: 'applied', position, changed, stops: recorded, resumed, caughtUp, lowestRunning, level: Object.keys(behind).length === 0 };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /**
   * Every running projector's share of the batch in one call, with no
   * savepoint; readers and their sources one event at a time, in log order
   * (this.interleaved). All of them side by side on the batch's connection
   * (oneQueryAtATime): while Postgres runs one projector's statement, the
   * next one decodes and folds its events, so the two cores work together
   * during a replay. Every share's `apply` starts before anything is awaited:
   * a pipelined replay's folds then take their turns in batch order
   * (replay-rows.ts).
   */
  private async applyTogether(
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
      for (const projector of this.byType.get(event.type) ?? []) {
        if (!running.has(projector) || !this.isPending(stored, projector, event)) continue;
        if (this.interleaved.has(projector)) {
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
      for (const projector of this.byType.get(event.type) ?? []) {
        if (!running.has(projector) || stops.has(projector) || !this.isPending(stored, projector, event)) continue;
        const failure = await this.applyInSavepoint(client, projector, event, changed);
        if (!failure) continue;
        // Resubscribing after `previous` delivers this event again: the projector's own checkpoint.
        const stopAt = (stopped: Projector, stoppedWith: Projector | null): BatchStop => ({
          projector: stopped,
          event,
          error: failure.error,
          stoppedWith,
          checkpoint: this.later(this.checkpointOf(stored, stopped.name), previous),
        });
        stops.set(projector, stopAt(projector, null));
        // Readers come later in the order, so none has applied this event yet.
        for (const reader of this.readers.get(projector) ?? []) {
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

  /** Writes the stops in the batch's transaction; the rows as stored. */
  private async recordStops(client: pg.PoolClient, stops: readonly BatchStop[]): Promise<{ stopped: StoppedProjector; error: unknown }[]> {
    for (const stop of stops) {
      const code = (stop.error as { code?: unknown } | null)?.code;
      await client.query(
        `INSERT INTO ${RUNNER_SCHEMA}.stopped_projectors (runner, projector, position, event_id, event_type, stream_id, error, error_code, stopped_with, stopped_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
         ON CONFLICT (runner, projector) DO UPDATE SET position = EXCLUDED.position, event_id = EXCLUDED.event_id, event_type = EXCLUDED.event_type,
           stream_id = EXCLUDED.stream_id, error = EXCLUDED.error, error_code = EXCLUDED.error_code, stopped_with = EXCLUDED.stopped_with, stopped_at = now()`,
        [
          this.name,
          stop.projector.name,
          stop.event.position,
          stop.event.id,
          stop.event.type,
          stop.event.streamId,
          errorText(stop.error),
          typeof code === 'string' ? code.slice(0, 20) : null,
          stop.stoppedWith?.name ?? null,
        ],
      );
    }
    const rows = await readStoppedProjectors(client, this.name);
    return stops.map((stop) => ({ stopped: rows.find((row) => row.projector === stop.projector.name)!, error: stop.error }));
  }

  /** A projector's own checkpoint: `position`, unless it is listed behind it. */
  private checkpointOf(stored: StoredCheckpoint, projector: string): Position | null {
    return Object.hasOwn(stored.behind, projector) ? (stored.behind[projector] ?? null) : stored.position;
  }

  private isPending(stored: StoredCheckpoint, projector: Projector, event: RecordedEvent): boolean {
    return this.compare(event.position, this.checkpointOf(stored, projector.name)) > 0;
  }

  /**
   * A start reads the log again from a stopped read model's checkpoint. When
   * it stops again there (no fix yet), the rest of that replay would only be
   * read and skipped by every other projector, holding back read-your-writes
   * meanwhile (200,000 events took 8.7 s here): resubscribe from where they all are.
   */
  private skipWhatNoOneNeeds(delivered: Position, lowestRunning: Position | null): void {
    if (lowestRunning === null || this.compare(lowestRunning, delivered) <= 0) return;
    this.consumer.restart({ position: lowestRunning });
  }

  private lowest(positions: readonly (Position | null)[]): Position | null {
    return positions.reduce<Position | null | undefined>((low, position) => (low === undefined || this.compare(position, low) < 0 ? position : low), undefined) ?? null;
  }

  /** Positions in log order, null (before the first event) first. */
  private compare(a: Position | null, b: Position | null): number {
    if (a === null) return b === null ? 0 : -1;
    if (b === null) return 1;
    return this.store.comparePositions(a, b);
  }

  private later(a: Position | null, b: Position | null): Position | null {
    return this.compare(a, b) >= 0 ? a : b;
  }

  /** Prepares again (rebuild, retry) and resubscribes, once the batch in progress is done. */
  private restartSubscription(): void {
    if (!this.isActive || this.consumer.restarting) return;
    this.caughtUpOnce = false;
    this.consumer.restart();
  }
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  // Postgres text cannot hold NUL; a message quoting the event's data might.
  return text.replaceAll('\u0000', '').slice(0, MAX_ERROR_LENGTH) || 'unknown error';
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function sameVersions(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** The key of the advisory lock serialising migrations (leadership is a lease: LeasedConsumer). */
function lockKey(name: string): string {
  return createHash('sha256').update(`fsm:${name}`).digest().readBigInt64BE(0).toString();
}

export type { Projector, RecordedEvent };
