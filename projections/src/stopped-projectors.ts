import type { Position } from '@fsm/eventstore';
import type { Queryable } from './read-models/queryable.js';

/** Schema holding the runner's own bookkeeping (checkpoints, stopped read models): survives rebuilds. */
export const RUNNER_SCHEMA = 'proj';

/**
 * A read model the runner stopped on an event it could not apply: the rest of
 * the read models go on, this one waits where it is until it is repaired
 * (docs/operations.md, "Repair a stopped read model").
 */
export interface StoppedProjector {
  runner: string;
  projector: string;
  /** The event it failed on; its own checkpoint is just before it. */
  position: Position;
  eventId: string;
  eventType: string;
  streamId: string;
  /** The error it threw (a Postgres SQLSTATE when there is one). */
  error: string;
  errorCode: string | null;
  /** When a read model it reads from stopped, that one's name (it stopped with it, on the same event). */
  stoppedWith: string | null;
  stoppedAt: string;
}

interface StoppedRow {
  runner: string;
  projector: string;
  position: string;
  event_id: string;
  event_type: string;
  stream_id: string;
  error: string;
  error_code: string | null;
  stopped_with: string | null;
  stopped_at: Date;
}

/** DDL of the table, run by the runner's `migrate()`. */
export const STOPPED_PROJECTORS_DDL = `CREATE TABLE IF NOT EXISTS ${RUNNER_SCHEMA}.stopped_projectors (
  runner text NOT NULL,
  projector text NOT NULL,
  position text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  stream_id text NOT NULL,
  error text NOT NULL,
  error_code text,
  stopped_with text,
  stopped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (runner, projector)
)`;

/**
 * The stopped read models of a runner (all runners when `runner` is null),
 * for health and the command-line tools. A database where no runner has
 * migrated yet has none.
 */
export async function readStoppedProjectors(db: Queryable, runner: string | null = 'read-models'): Promise<StoppedProjector[]> {
  const { rows } = await db
    .query<StoppedRow>(
      `SELECT runner, projector, position, event_id, event_type, stream_id, error, error_code, stopped_with, stopped_at
       FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE $1::text IS NULL OR runner = $1 ORDER BY runner, position, projector`,
      [runner],
    )
    .catch((error: unknown) => {
      if ((error as { code?: unknown }).code === '42P01') return { rows: [] as StoppedRow[] };
      throw error;
    });
  return rows.map((row) => ({
    runner: row.runner,
    projector: row.projector,
    position: row.position,
    eventId: row.event_id,
    eventType: row.event_type,
    streamId: row.stream_id,
    error: row.error,
    errorCode: row.error_code,
    stoppedWith: row.stopped_with,
    stoppedAt: row.stopped_at.toISOString(),
  }));
}

/** One line per stopped read model, in French, for the command-line tools. */
export function describeStoppedProjector(stopped: StoppedProjector): string {
  const cause = stopped.stoppedWith ? `arrêtée avec la vue « ${stopped.stoppedWith} » qu'elle lit` : stopped.error;
  return `Vue « ${stopped.projector} » arrêtée à l'événement ${stopped.position} (${stopped.eventType}, flux ${stopped.streamId}, id ${stopped.eventId}) : ${cause}`;
}
