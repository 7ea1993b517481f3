import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { LeaderSession, Position, SubscriptionBatch } from '@fsm/eventstore';
import type { StoppedProjector } from '../stopped-projectors.js';
import { RUNNER_SCHEMA } from '../stopped-projectors.js';
import { PROJECTION_CHANNEL, announce, type ProjectionAdvance } from './announcements.js';
import { BatchProcessor, type BatchOutcome } from './batch-processor.js';
import { LogOrder, checkpointOf } from './log-order.js';
import { PipelinedReplay } from './pipelined-replay.js';
import { ProjectorSet } from './projector-set.js';
import { ReadModelTables } from './read-model-tables.js';
import { Rebuild, type CheckpointState } from './rebuild.js';
import { READ_MODEL_SCHEMA, silentLogger, type ProjectionRunnerOptions, type RunnerLogger } from './runner-options.js';
import { StoppedReadModels } from './stopped-read-models.js';
import { RunnerSubscription } from './subscription.js';

const MAX_IDS_PER_NOTIFY = 200;

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
 *
 * This class wires the rooms together: the subscription (subscription.ts),
 * one batch at a time (batch-processor.ts) or two during a shadow's replay
 * (pipelined-replay.ts), blue/green rebuilds (rebuild.ts) and the stopped read
 * models (stopped-read-models.ts).
 */
export class ProjectionRunner extends EventEmitter {
  readonly name: string;
  private readonly pool: pg.Pool;
  private readonly projectors: ProjectorSet;
  private readonly order: LogOrder;
  private readonly logger: RunnerLogger;
  private readonly options: ProjectionRunnerOptions;
  private readonly tables: ReadModelTables;
  private readonly subscription: RunnerSubscription;
  private readonly stopped: StoppedReadModels;
  private readonly rebuild: Rebuild;
  private readonly batches: BatchProcessor;
  private readonly replay: PipelinedReplay;
  private lastPosition: Position | null = null;

  constructor(options: ProjectionRunnerOptions) {
    super();
    this.name = options.name ?? 'read-models';
    this.pool = options.pool;
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.projectors = new ProjectorSet(options.projectors);
    this.order = new LogOrder(options.store);
    const schema = options.shadowSchema ?? READ_MODEL_SCHEMA;
    this.tables = new ReadModelTables(this.name, options.projectors, schema, Boolean(options.shadowSchema));
    this.stopped = new StoppedReadModels(this.name, this.logger);
    this.subscription = new RunnerSubscription({
      pool: this.pool,
      store: options.store,
      name: this.name,
      eventTypes: this.projectors.eventTypes,
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
      // A shadow keeps two batches in flight itself (pipelined-replay.ts).
      readAhead: options.shadowSchema === undefined,
      ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
      ...(options.standbyRetryMs !== undefined ? { standbyRetryMs: options.standbyRetryMs } : {}),
      logger: this.logger,
      hooks: {
        prepare: async (client) => {
          await this.replay.settle();
          return this.prepare(client);
        },
        handle: (batch, session) => (this.replay.active ? this.replay.apply(batch, session) : this.applyBatch(batch, session)),
        // Not caught up while a rebuild is still to be swapped in: the swap restarts the subscription.
        countsAsCaughtUp: () => !this.rebuild.building,
        caughtUp: () => {
          this.rebuild.caughtUp();
          this.emit('caughtUp', this.lastPosition);
        },
        stepDown: async () => {
          // The batches still in flight end (commit or fail) before the session goes.
          await this.replay.settle();
          void this.rebuild.stopShadow();
        },
        rebuilding: () => this.rebuild.building,
      },
    });
    this.rebuild = new Rebuild({
      runner: this.name,
      runnerOptions: options,
      projectors: this.projectors,
      order: this.order,
      tables: this.tables,
      subscription: this.subscription,
      logger: this.logger,
      schema,
      createShadow: (shadowOptions) => new ProjectionRunner(shadowOptions),
    });
    this.batches = new BatchProcessor({
      runner: this.name,
      projectors: this.projectors,
      order: this.order,
      stopped: this.stopped,
      logger: this.logger,
      isCurrent: (session) => this.subscription.session === session,
      rebuilding: () => this.rebuild.building,
      isFrozen: (projector) => this.rebuild.isFrozen(projector),
    });
    this.replay = new PipelinedReplay({
      runner: this.name,
      projectors: this.projectors,
      order: this.order,
      batches: this.batches,
      subscription: this.subscription,
      logger: this.logger,
      afterBatch: (outcome, batch, target) => this.afterBatch(outcome, batch, target),
    });
  }

  /** Whether this instance currently holds the lease and applies batches. */
  get isActive(): boolean {
    return this.subscription.isActive;
  }

  /** Where every running read model is: what read-your-writes waits for. */
  get position(): Position | null {
    return this.lastPosition;
  }

  get hasCaughtUp(): boolean {
    return this.subscription.hasCaughtUp;
  }

  /** Read models this process stopped on an event they could not apply. */
  get stoppedProjectors(): StoppedProjector[] {
    return this.stopped.stoppedByThisProcess;
  }

  /** The projector set's fingerprint: a change means the read models must be rebuilt. */
  get versions(): Record<string, number> {
    return this.projectors.versions;
  }

  /** Creates the runner's tables and the read-model tables. Safe to run concurrently. */
  async migrate(): Promise<void> {
    await this.tables.migrate(this.pool, this.versions);
  }

  /** Starts applying, or waits as a standby while another runner holds the lease. */
  async start(): Promise<void> {
    await this.subscription.start();
  }

  async stop(): Promise<void> {
    await this.rebuild.stopShadow();
    await this.subscription.stop();
  }

  /**
   * Asks for a rebuild. The active runner (here or in another process) builds
   * every read model again beside the live ones and swaps them in once caught
   * up (blue-green.ts); `rebuild_requested` stays set until that swap. When no
   * runner is active, the next one to start does it.
   */
  async requestRebuild(): Promise<void> {
    await this.rebuild.request(PROJECTION_CHANNEL);
  }

  /**
   * Asks the active runner (here or in another process) to try its stopped
   * read models again from their own checkpoints, without a restart; when no
   * runner is active, the next one to start does it anyway. Returns the
   * database's time of the request.
   */
  async requestRetry(): Promise<Date> {
    return this.stopped.requestRetry(this.pool);
  }

  /** Resolves once this runner is active and has reached the head of the log. */
  async waitUntilCaughtUp(): Promise<void> {
    if (this.hasCaughtUp && this.isActive) return;
    await new Promise<void>((resolve) => {
      const onCaughtUp = () => {
        this.off('caughtUp', onCaughtUp);
        resolve();
      };
      this.on('caughtUp', onCaughtUp);
    });
  }

  /** A shadow that has caught up: the indexes only the screens read (Projector.queryIndexesSql), before it is analyzed and swapped in. */
  async createQueryIndexes(): Promise<void> {
    await this.tables.createQueryIndexes(this.pool);
  }

  /**
   * Rebuilds first when asked to, or when the projector set changed. Every
   * stopped read model is tried again: the subscription starts from the lowest
   * projector checkpoint, and each projector skips what it already applied.
   */
  private async prepare(client: pg.PoolClient): Promise<Position | null> {
    const { rows } = await client.query<CheckpointState>(
      `SELECT position, versions, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
      [this.name],
    );
    const row = rows[0];
    if (!row) throw new Error(`checkpoint row ${this.name} missing: call migrate() first`);
    const stored = await this.rebuild.prepare(client, row);
    await this.stopped.tryAgain(
      client,
      this.projectors.all.map((projector) => projector.name),
      (projector) => checkpointOf(stored, projector),
    );
    this.lastPosition = stored.position;
    let from = stored.position;
    for (const projector of this.projectors.all) {
      if (this.rebuild.isFrozen(projector.name)) continue;
      const own = checkpointOf(stored, projector.name);
      if (this.order.compare(own, from) < 0) from = own;
    }
    return from;
  }

  /** One batch at a time: live, and a replay until its read models are level. */
  private async applyBatch(batch: SubscriptionBatch, session: LeaderSession): Promise<void> {
    const target = this.subscription.targetOf(batch, session);
    if (target === null) return;
    const outcome = await this.batches.apply(session, batch, target);
    await this.afterBatch(outcome, batch, target);
    // A rebuild's shadow, which nobody reads before the swap, replays two batches at a time.
    if (outcome.kind === 'applied' && outcome.level && !batch.caughtUp && this.options.shadowSchema !== undefined && this.stopped.noneStoppedHere) {
      this.replay.begin(outcome.position);
    }
  }

  /** What follows a batch's transaction: the runner's state, the logs, and the screens' notification. */
  private async afterBatch(outcome: BatchOutcome, batch: SubscriptionBatch, target: Position): Promise<void> {
    if (outcome.kind === 'rebuild') return this.subscription.restart();
    if (outcome.kind === 'already-applied') {
      this.lastPosition = outcome.position;
      return;
    }
    this.stopped.noteStopped(outcome.stops);
    if (outcome.stops.length > 0) this.skipWhatNoOneNeeds(target, outcome.lowestRunning);
    this.stopped.noteResumed(outcome.resumed);
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
    if (batch.events.length > 0 || changed.size > 0) await announce(this.pool, this.logger, advance);
    if (outcome.caughtUp.length > 0) {
      this.logger.info({ runner: this.name, projectors: outcome.caughtUp, position: outcome.position }, 'projections: read models caught up with the others');
      // Their rows changed below the position screens already saw: every screen refetches once.
      await announce(this.pool, this.logger, { runner: this.name, resync: true });
    }
  }

  /**
   * A start reads the log again from a stopped read model's checkpoint. When
   * it stops again there (no fix yet), the rest of that replay would only be
   * read and skipped by every other projector, holding back read-your-writes
   * meanwhile (200,000 events took 8.7 s here): resubscribe from where they all are.
   */
  private skipWhatNoOneNeeds(delivered: Position, lowestRunning: Position | null): void {
    if (lowestRunning === null || this.order.compare(lowestRunning, delivered) <= 0) return;
    this.subscription.skipTo(lowestRunning);
  }
}
