import type { Position } from '@fsm/eventstore';
import type { Queryable } from './read-models/queryable.js';
import { RUNNER_SCHEMA } from './stopped-projectors.js';

export interface ReadModelsTarget {
  /** A pool, or the client of a transaction whose snapshot the caller then reads from. */
  db: Queryable;
  /** The event store's comparator. */
  compare: (a: Position, b: Position) => number;
}

export interface ReadModelsOptions {
  /** Projector names; by default every read model of the runner. */
  readModels?: readonly string[];
  runner?: string;
}

export interface WaitForReadModelsOptions extends ReadModelsOptions {
  /** How long to wait before answering false; 0 checks once. */
  timeoutMs?: number;
  pollIntervalMs?: number;
}

interface CheckpointRow {
  position: string | null;
  versions: Record<string, number>;
  projector_positions: Record<string, Position | null>;
  stopped: string[];
}

/** Tables or columns a runner has not created yet: the read models are not built. */
const NOT_BUILT = new Set(['42P01', '42703', '3F000']);

/**
 * Whether each named read model holds every event up to `position`. A read
 * model is where `proj.checkpoints.position` is unless `projector_positions`
 * lists it behind; a stopped one counts as not there whatever its checkpoint,
 * since its repair (docs/operations.md) may rebuild it; one the runner has
 * never built (a newer name, no checkpoint row yet) is not there either.
 */
export async function readModelsReached(target: ReadModelsTarget, position: Position, options: ReadModelsOptions = {}): Promise<boolean> {
  let row: CheckpointRow | undefined;
  try {
    const { rows } = await target.db.query<CheckpointRow>(
      `SELECT position, versions, projector_positions,
              ARRAY(SELECT projector FROM ${RUNNER_SCHEMA}.stopped_projectors WHERE runner = $1) AS stopped
       FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
      [options.runner ?? 'read-models'],
    );
    row = rows[0];
  } catch (error) {
    if (NOT_BUILT.has(String((error as { code?: unknown }).code))) return false;
    throw error;
  }
  if (!row) return false;
  const built = Object.keys(row.versions ?? {});
  const wanted = options.readModels ?? built;
  const stopped = new Set(row.stopped);
  const at = (name: string): Position | null => (Object.hasOwn(row.projector_positions, name) ? (row.projector_positions[name] ?? null) : row.position);
  return wanted.every((name) => {
    if (!built.includes(name) || stopped.has(name)) return false;
    const reached = at(name);
    return reached !== null && target.compare(reached, position) >= 0;
  });
}

/**
 * Waits until the read models hold every event up to `position` (see
 * `readModelsReached`); false once `timeoutMs` has passed without it. For a
 * process without the runner's announcements (the workers): it polls.
 */
export async function waitForReadModels(target: ReadModelsTarget, position: Position, options: WaitForReadModelsOptions = {}): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? 0);
  const pollIntervalMs = options.pollIntervalMs ?? 100;
  for (;;) {
    if (await readModelsReached(target, position, options)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}
