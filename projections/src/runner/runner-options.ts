import type pg from 'pg';
import type { EventStore } from '@fsm/eventstore';
import type { Projector } from '../projector.js';

/** Schema holding every live read-model table (a rebuild builds beside it: blue-green.ts). */
export const READ_MODEL_SCHEMA = 'rm';

export interface RunnerLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export const silentLogger: RunnerLogger = { info() {}, warn() {}, error() {} };

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
