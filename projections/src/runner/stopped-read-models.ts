import type pg from 'pg';
import type { Position, RecordedEvent } from '@fsm/eventstore';
import type { Projector } from '../projector.js';
import { RUNNER_SCHEMA, readStoppedProjectors, type StoppedProjector } from '../stopped-projectors.js';
import type { RunnerLogger } from './runner-options.js';

/** Longest error text kept in proj.stopped_projectors (a message can quote a whole row). */
const MAX_ERROR_LENGTH = 2_000;

/** A projector stopped while applying a batch, and the checkpoint it keeps. */
export interface BatchStop {
  projector: Projector;
  event: RecordedEvent;
  error: unknown;
  /** Set when it stopped because a read model it reads did. */
  stoppedWith: Projector | null;
  checkpoint: Position | null;
}

/** A stop as stored, and the error that caused it (for the log). */
export interface RecordedStop {
  stopped: StoppedProjector;
  error: unknown;
}

/**
 * The read models a runner stopped (proj.stopped_projectors): a projector
 * that fails on an event every time it is tried is stopped just before it and
 * left alone by this process, while the other read models, and `position`, go
 * on. At the next start, or on a requested retry, it is tried again from its
 * own checkpoint; its row goes once it gets past that event.
 */
export class StoppedReadModels {
  private readonly runner: string;
  private readonly logger: RunnerLogger;
  /** Read models this process stopped: not applied again until a restart or a retry. */
  private readonly stoppedHere = new Map<string, StoppedProjector>();
  /** The rows of proj.stopped_projectors for this runner: deleted once their projector gets past the event. */
  private readonly recordedStops = new Map<string, StoppedProjector>();

  constructor(runner: string, logger: RunnerLogger) {
    this.runner = runner;
    this.logger = logger;
  }

  /** Read models this process stopped on an event they could not apply. */
  get stoppedByThisProcess(): StoppedProjector[] {
    return [...this.stoppedHere.values()];
  }

  get noneStoppedHere(): boolean {
    return this.stoppedHere.size === 0;
  }

  isStoppedHere(projector: string): boolean {
    return this.stoppedHere.has(projector);
  }

  /** The stops recorded for this runner, by this process or before it. */
  get recorded(): StoppedProjector[] {
    return [...this.recordedStops.values()];
  }

  /**
   * Asks the active runner (here or in another process) to try its stopped
   * read models again; returns the database's time of the request.
   */
  async requestRetry(pool: pg.Pool): Promise<Date> {
    const { rows } = await pool.query<{ at: Date }>(
      `UPDATE ${RUNNER_SCHEMA}.checkpoints SET retry_requested = true WHERE name = $1 RETURNING now() AS at`,
      [this.runner],
    );
    if (!rows[0]) throw new Error(`checkpoint row ${this.runner} missing: call migrate() first`);
    return rows[0].at;
  }

  /**
   * At each (re)subscription: every stopped read model is tried again, and
   * the rows of projectors no longer registered go. `from` says where each
   * starts again, for the log.
   */
  async tryAgain(client: pg.PoolClient, registered: readonly string[], from: (projector: string) => Position | null): Promise<void> {
    await client.query(`UPDATE ${RUNNER_SCHEMA}.checkpoints SET retry_requested = false WHERE name = $1 AND retry_requested`, [this.runner]);
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1 AND NOT (projector = ANY($2::text[]))`, [this.runner, registered]);
    this.stoppedHere.clear();
    this.recordedStops.clear();
    for (const stopped of await readStoppedProjectors(client, this.runner)) {
      this.recordedStops.set(stopped.projector, stopped);
      this.logger.warn(
        { runner: this.runner, projector: stopped.projector, position: stopped.position, from: from(stopped.projector) },
        'projections: trying a stopped read model again from its own checkpoint',
      );
    }
  }

  /** Writes the stops in the batch's transaction; the rows as stored. */
  async record(client: pg.PoolClient, stops: readonly BatchStop[]): Promise<RecordedStop[]> {
    for (const stop of stops) {
      const code = (stop.error as { code?: unknown } | null)?.code;
      await client.query(
        `INSERT INTO ${RUNNER_SCHEMA}.stopped_projectors (runner, projector, position, event_id, event_type, stream_id, error, error_code, stopped_with, stopped_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now())
         ON CONFLICT (runner, projector) DO UPDATE SET position = EXCLUDED.position, event_id = EXCLUDED.event_id, event_type = EXCLUDED.event_type,
           stream_id = EXCLUDED.stream_id, error = EXCLUDED.error, error_code = EXCLUDED.error_code, stopped_with = EXCLUDED.stopped_with, stopped_at = now()`,
        [
          this.runner,
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
    const rows = await readStoppedProjectors(client, this.runner);
    return stops.map((stop) => ({ stopped: rows.find((row) => row.projector === stop.projector.name)!, error: stop.error }));
  }

  /** Deletes, in the batch's transaction, the rows of the read models that got past their event. */
  async forgetResumed(client: pg.PoolClient, resumed: readonly StoppedProjector[]): Promise<void> {
    if (resumed.length === 0) return;
    await client.query(`DELETE FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1 AND projector = ANY($2::text[])`, [
      this.runner,
      resumed.map((stopped) => stopped.projector),
    ]);
  }

  /** Once the batch committed: this process leaves the stopped ones alone, and says so. */
  noteStopped(stops: readonly RecordedStop[]): void {
    for (const { stopped, error } of stops) {
      this.stoppedHere.set(stopped.projector, stopped);
      this.recordedStops.set(stopped.projector, stopped);
      this.logger.error(
        { err: error, ...stopped },
        stopped.stoppedWith
          ? `projections: read model ${stopped.projector} stopped with ${stopped.stoppedWith}, whose tables it reads; the others go on (docs/operations.md)`
          : `projections: read model ${stopped.projector} stopped on an event it cannot apply; the others go on (docs/operations.md)`,
      );
    }
  }

  /** Once the batch committed: the read models that got past the event they had stopped on. */
  noteResumed(resumed: readonly StoppedProjector[]): void {
    for (const stopped of resumed) {
      this.recordedStops.delete(stopped.projector);
      this.logger.info({ runner: this.runner, projector: stopped.projector, position: stopped.position }, `projections: read model ${stopped.projector} got past the event it had stopped on`);
    }
  }
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  // Postgres text cannot hold NUL; a message quoting the event's data might.
  return text.replaceAll('\u0000', '').slice(0, MAX_ERROR_LENGTH) || 'unknown error';
}
