import type pg from 'pg';
import type { LeaderSession, Position } from '@fsm/eventstore';
import { RETIRED_SCHEMA, SHADOW_SCHEMA, projectorsInSchema, shadowRunnerName, tablesOf } from '../blue-green.js';
import { RUNNER_SCHEMA } from '../stopped-projectors.js';
import { announce } from './announcements.js';
import { checkpointOf, type LogOrder, type StoredCheckpoint } from './log-order.js';
import type { ProjectorSet } from './projector-set.js';
import type { ReadModelTables } from './read-model-tables.js';
import { READ_MODEL_SCHEMA, type ProjectionRunnerOptions, type RunnerLogger } from './runner-options.js';
import type { ProjectionRunner } from './runner.js';
import type { RunnerSubscription } from './subscription.js';

/** How long the swap waits for a lock on a live table before it gives up and tries again later. */
const SWAP_LOCK_TIMEOUT = '5s';
const SWAP_RETRY_MS = 2_000;

/**
 * Events per batch of a blue/green rebuild: the folded projectors write a
 * ticket once per batch whatever its number of events, so a batch spanning
 * days of history writes most tickets once (at 100,000 tickets, Postgres
 * spent 16 s with batches of 2,000 and 13 s with 10,000). A batch is one
 * transaction of about half a second, the longest a live command then waits
 * for its read models (a subscriber reads below the oldest running
 * transaction, docs/event-store.md). The shadow keeps two batches in flight
 * (pipelined-replay.ts): at 1M tickets, batches of 10,000 peaked at 491 MB of
 * memory, 8,000 at 453 MB for 7 % more time (docs/benchmarks.md).
 */
const REBUILD_BATCH_SIZE = 8_000;

/** A rebuild in progress in this process: the runner building the shadow, and what it rebuilds. */
interface ShadowBuild {
  runner: ProjectionRunner;
  /** The read models rebuilt (a version changed, or a reader of one; every one on request). */
  names: ReadonlySet<string>;
  swapping: boolean;
}

/** proj.checkpoints as prepare() reads it. */
export interface CheckpointState {
  position: Position | null;
  versions: Record<string, number>;
  rebuild_requested: boolean;
  projector_positions: Record<string, Position | null>;
}

export interface RebuildOptions {
  runner: string;
  runnerOptions: ProjectionRunnerOptions;
  projectors: ProjectorSet;
  order: LogOrder;
  tables: ReadModelTables;
  subscription: RunnerSubscription;
  logger: RunnerLogger;
  /** Schema of the tables this runner writes: `rm`, or the shadow's. */
  schema: string;
  /** The runner building a shadow (runner.ts; passed in so this file does not import the runner). */
  createShadow(options: ProjectionRunnerOptions): ProjectionRunner;
}

/**
 * Blue/green rebuilds (blue-green.ts, docs/operations.md): a second runner
 * replays the log into the shadow schema beside the live tables, which keep
 * answering, and one transaction swaps its tables in once it has caught up.
 * A new database is built in place instead, and a shadow resets its own schema.
 */
export class Rebuild {
  private readonly options: RebuildOptions;
  private readonly pool: pg.Pool;
  private readonly runner: string;
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

  constructor(options: RebuildOptions) {
    this.options = options;
    this.pool = options.runnerOptions.pool;
    this.runner = options.runner;
  }

  /** A shadow is being built (or swapped in) by this process. */
  get building(): boolean {
    return this.shadow !== null;
  }

  isFrozen(projector: string): boolean {
    return this.frozen.has(projector);
  }

  /**
   * Asks for a rebuild. The active runner (here or in another process) builds
   * every read model again beside the live ones and swaps them in once caught
   * up; `rebuild_requested` stays set until that swap. When no runner is
   * active, the next one to start does it.
   */
  async request(channel: string): Promise<void> {
    await this.pool.query(`UPDATE ${RUNNER_SCHEMA}.checkpoints SET rebuild_requested = true WHERE name = $1`, [this.runner]);
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify({ runner: this.runner, rebuild: true })]);
  }

  /** Once caught up after a first build in place: its tables are vacuumed and analyzed. */
  caughtUp(): void {
    if (this.analyzeWhenCaughtUp) {
      this.analyzeWhenCaughtUp = false;
      void this.analyzeReadModels();
    }
  }

  /**
   * Before (re)subscribing, rebuilds first when asked to, or when the
   * projector set changed; the checkpoints to start from.
   */
  async prepare(client: pg.PoolClient, row: CheckpointState): Promise<StoredCheckpoint> {
    const versions = this.options.projectors.versions;
    if (this.options.runnerOptions.shadowSchema) {
      // The shadow's own tables: nothing reads them before the swap.
      if (row.rebuild_requested || !sameVersions(row.versions, versions)) {
        await this.resetReadModels(client);
        return { position: null, behind: {} };
      }
    } else if (row.position === null) {
      // Nothing was ever applied here (a new database): no screen reads these tables yet, so
      // they are built in place, as fast as a replay goes, rather than beside themselves.
      if (row.rebuild_requested || !sameVersions(row.versions, versions)) {
        await this.stopShadow();
        await this.dropShadow(client, shadowRunnerName(this.runner));
        await this.resetReadModels(client);
        this.frozen = new Set();
        this.analyzeWhenCaughtUp = true;
        return { position: null, behind: {} };
      }
    } else {
      await this.planRebuild(client, row.versions, row.rebuild_requested);
    }
    return { position: row.position, behind: row.projector_positions };
  }

  async stopShadow(): Promise<void> {
    const shadow = this.shadow;
    this.shadow = null;
    if (shadow) await shadow.runner.stop().catch(() => undefined);
  }

  /** The read models whose stored version differs from this code's (or that were never built). */
  private changedSince(stored: Record<string, number>): Set<string> {
    return new Set(this.options.projectors.all.filter((projector) => stored[projector.name] !== projector.version).map((projector) => projector.name));
  }

  /**
   * Blue/green: when asked to rebuild (all read models) or when versions
   * changed (those read models and their readers), starts or resumes the
   * build of the shadow beside the live tables; the swap happens once it has
   * caught up (`swapWhenReady`). A build interrupted (a restart, a takeover)
   * resumes from the shadow's checkpoint.
   */
  private async planRebuild(client: pg.PoolClient, storedVersions: Record<string, number>, requested: boolean): Promise<void> {
    const all = this.options.projectors.all;
    const changed = this.changedSince(storedVersions);
    const wanted = new Set<string>(requested ? all.map((projector) => projector.name) : []);
    for (const projector of all) {
      if (!changed.has(projector.name)) continue;
      wanted.add(projector.name);
      for (const reader of this.options.projectors.readersOf(projector)) wanted.add(reader.name);
    }
    // Changed read models are not applied to their previous tables; a requested rebuild of unchanged ones keeps them live.
    this.frozen = changed.size > 0 ? new Set(wanted) : new Set();
    // A rebuilt reader is rebuilt with its sources (small tables: clients, sites, métiers), so it copies
    // them as they stood at each event, as the live runner gives them, not as they stand at the head.
    for (let grew = true; grew; ) {
      grew = false;
      for (const projector of all) {
        if (!wanted.has(projector.name)) continue;
        for (const source of projector.readsFrom ?? []) {
          if (!wanted.has(source)) {
            wanted.add(source);
            grew = true;
          }
        }
      }
    }
    const shadowName = shadowRunnerName(this.runner);
    if (wanted.size === 0) {
      await this.stopShadow();
      await this.dropShadow(client, shadowName);
      return;
    }
    if (this.shadow && sameSet(this.shadow.names, wanted)) return;
    await this.stopShadow();
    const projectors = all.filter((projector) => wanted.has(projector.name));
    const wantedVersions = Object.fromEntries(projectors.map((projector) => [projector.name, projector.version]));
    const existing = await client.query<{ versions: Record<string, number> }>(`SELECT versions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [shadowName]);
    const resumed = existing.rows[0] !== undefined && sameVersions(existing.rows[0].versions, wantedVersions);
    if (!resumed) await this.dropShadow(client, shadowName);
    const { runnerOptions, logger } = this.options;
    logger.info(
      { runner: this.runner, readModels: [...wanted], resumed, stored: storedVersions, wanted: this.options.projectors.versions },
      'projections: rebuilding read models beside the live ones (blue/green)',
    );
    const runner = this.options.createShadow({
      pool: this.pool,
      store: runnerOptions.store,
      projectors: projectorsInSchema(projectors, SHADOW_SCHEMA),
      name: shadowName,
      shadowSchema: SHADOW_SCHEMA,
      logger,
      batchSize: runnerOptions.batchSize ?? REBUILD_BATCH_SIZE,
      ...(runnerOptions.leaseMs !== undefined ? { leaseMs: runnerOptions.leaseMs } : {}),
      ...(runnerOptions.standbyRetryMs !== undefined ? { standbyRetryMs: runnerOptions.standbyRetryMs } : {}),
    });
    const shadow: ShadowBuild = { runner, names: wanted, swapping: false };
    this.shadow = shadow;
    runner.on('caughtUp', () => void this.swapWhenReady(shadow));
    await runner.migrate();
    void runner.start().catch((error: unknown) => logger.warn({ err: error }, 'projections: the rebuild could not start; retried at the next restart'));
  }

  private async dropShadow(client: pg.PoolClient, shadowName: string): Promise<void> {
    await client.query(`DROP SCHEMA IF EXISTS ${SHADOW_SCHEMA} CASCADE`);
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [shadowName]);
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1`, [shadowName]);
  }

  /**
   * Once the shadow has caught up: vacuums and analyzes its tables (the
   * replay left dead rows and stale statistics), then, between two live
   * batches, waits until the shadow holds at least what the live read models
   * hold, stops it and swaps its tables in, in one transaction.
   */
  private async swapWhenReady(shadow: ShadowBuild): Promise<void> {
    if (shadow.swapping || this.shadow !== shadow) return;
    const { subscription, order, logger } = this.options;
    shadow.swapping = true;
    let swapped = false;
    try {
      await shadow.runner.createQueryIndexes();
      // Statistics before the swap (the planner's first plans on the new tables); the VACUUM,
      // which only sets the visibility map by then (the screens' indexes were built after the
      // replay, with no dead row in them), runs once they are live, beside the screens.
      await this.analyzeReadModels(SHADOW_SCHEMA, { vacuum: false });
      swapped = await subscription.exclusive(async () => {
        const session = subscription.session;
        if (!session || this.shadow !== shadow) return false;
        const shadowName = shadowRunnerName(this.runner);
        const positions = async () => {
          const { rows } = await session.client.query<{ name: string; position: string | null }>(
            `SELECT name, position FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = ANY($1::text[])`,
            [[this.runner, shadowName]],
          );
          return { live: rows.find((row) => row.name === this.runner)?.position ?? null, next: rows.find((row) => row.name === shadowName)?.position ?? null };
        };
        // No live batch meanwhile: the shadow only has the last few events to apply.
        const deadline = Date.now() + 30_000;
        for (;;) {
          const { live, next } = await positions();
          if (order.compare(next, live) >= 0) break;
          if (Date.now() > deadline) return false;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await shadow.runner.stop();
        return this.swap(session, shadow);
      });
    } catch (error) {
      logger.warn({ err: error, runner: this.runner }, 'projections: swapping the rebuilt read models in failed; tried again shortly');
    }
    if (swapped) {
      this.shadow = null;
      this.frozen = new Set();
      logger.info({ runner: this.runner, readModels: [...shadow.names] }, 'projections: rebuilt read models swapped in');
      // Every screen refetches once, from the new tables.
      await announce(this.pool, logger, { runner: this.runner, resync: true });
      subscription.restart();
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
    const { order } = this.options;
    const all = this.options.projectors.all;
    const client = session.client;
    const shadowName = shadowRunnerName(this.runner);
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL lock_timeout = '${SWAP_LOCK_TIMEOUT}'`);
      const read = async (name: string) =>
        (
          await client.query<CheckpointState>(
            `SELECT position, versions, rebuild_requested, projector_positions FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1 FOR UPDATE`,
            [name],
          )
        ).rows[0];
      const live = await read(this.runner);
      const next = await read(shadowName);
      if (!live || !next || order.compare(next.position, live.position) < 0) {
        await client.query('ROLLBACK');
        return false;
      }
      const rebuilt = all.filter((projector) => shadow.names.has(projector.name));
      await client.query(`DROP SCHEMA IF EXISTS ${RETIRED_SCHEMA} CASCADE; CREATE SCHEMA ${RETIRED_SCHEMA}`);
      for (const table of rebuilt.flatMap(tablesOf)) {
        await client.query(`ALTER TABLE IF EXISTS ${READ_MODEL_SCHEMA}.${table} SET SCHEMA ${RETIRED_SCHEMA}`);
        await client.query(`ALTER TABLE ${SHADOW_SCHEMA}.${table} SET SCHEMA ${READ_MODEL_SCHEMA}`);
      }
      await client.query(`DROP SCHEMA ${RETIRED_SCHEMA} CASCADE; DROP SCHEMA ${SHADOW_SCHEMA} CASCADE`);
      // The rebuilt read models are where the shadow's checkpoints are (at or past the live position).
      const nextStored: StoredCheckpoint = { position: next.position, behind: next.projector_positions };
      const behind: Record<string, Position | null> = {};
      for (const projector of all) {
        const at = shadow.names.has(projector.name) ? checkpointOf(nextStored, projector.name) : checkpointOf({ position: live.position, behind: live.projector_positions }, projector.name);
        if (order.compare(at, live.position) !== 0) behind[projector.name] = at;
      }
      const versions = { ...live.versions, ...Object.fromEntries(rebuilt.map((projector) => [projector.name, projector.version])) };
      // A rebuild asked for meanwhile of read models not in this one is left asked for.
      const requested = live.rebuild_requested && !all.every((projector) => shadow.names.has(projector.name));
      await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1 AND projector = ANY($2::text[])`, [this.runner, [...shadow.names]]);
      await client.query(`UPDATE ${RUNNER_SCHEMA}.stopped_projectors SET runner = $1 WHERE runner = $2`, [this.runner, shadowName]);
      await client.query(`DELETE FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`, [shadowName]);
      await client.query(session.fence);
      await client.query(
        `UPDATE ${RUNNER_SCHEMA}.checkpoints SET projector_positions = $2::jsonb, versions = $3::jsonb, rebuild_requested = $4, updated_at = now() WHERE name = $1`,
        [this.runner, JSON.stringify(behind), JSON.stringify(versions), requested],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** A start from scratch (a shadow, or a new database): this runner's own schema only. */
  private async resetReadModels(client: pg.PoolClient): Promise<void> {
    await client.query('BEGIN');
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${this.options.schema} CASCADE`);
      await this.options.tables.create(client);
      // The stopped read models' rows stay: each goes once its projector gets past that event again.
      await client.query(
        `UPDATE ${RUNNER_SCHEMA}.checkpoints SET position = NULL, projector_positions = '{}'::jsonb, versions = $2, rebuild_requested = false, updated_at = now() WHERE name = $1`,
        [this.runner, JSON.stringify(this.options.projectors.versions)],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
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
  private async analyzeReadModels(schema = this.options.schema, { vacuum = true } = {}): Promise<void> {
    const statement = vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE';
    const { logger } = this.options;
    try {
      const { rows } = await this.pool.query<{ name: string }>(
        `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`,
        [schema],
      );
      for (const { name } of rows) await this.pool.query(`${statement} ${name}`);
      logger.info({ runner: this.runner, tables: rows.length, statement }, 'projections: read models analyzed after the rebuild');
    } catch (error) {
      logger.warn({ err: error }, `projections: ${statement} after the rebuild failed (autovacuum will do it later)`);
    }
  }
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

function sameVersions(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
