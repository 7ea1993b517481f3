import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@fsm/eventstore';

/**
 * A read model. The runner owns transactions and checkpoints: `apply` runs
 * inside the runner's transaction, together with the checkpoint update, so a
 * batch is applied exactly once whatever happens to the process.
 *
 * `apply` must still be idempotent (a rebuild replays everything; a projector
 * may guard on the stream revision it last applied).
 */
export interface Projector {
  /** Unique, stable; also names its tables' prefix. */
  readonly name: string;
  /** Bump when tables or handling change: the runner then rebuilds all read models. */
  readonly version: number;
  /** DDL creating its tables and indexes in schema `rm` (idempotent: IF NOT EXISTS). */
  readonly setupSql: string;
  /** Event types it handles; others are not passed to `apply`. */
  readonly handles: readonly string[];
  /**
   * Names of the projectors whose tables `apply` reads (copies a client's
   * agency into a site, ...). They must be registered before this one, so each
   * event reaches them first; and when one of them is stopped on an event, this
   * one stops there too rather than copy stale rows it could never correct.
   */
  readonly readsFrom?: readonly string[];
  /** Returns the ids (e.g. ticket ids) whose rows changed, for live updates. */
  apply(tx: PoolClient, event: RecordedEvent): Promise<readonly string[] | void>;
  /**
   * Optional: applies all of a batch's events for this projector at once (in
   * log order), leaving exactly the rows `apply` would leave one event at a
   * time, with set-based statements instead of a round trip per event. The
   * runner then calls it once per batch, after the per-event projectors, in
   * the same transaction: only a projector that reads nothing but its own
   * tables may offer it.
   */
  applyBatch?(tx: PoolClient, events: readonly RecordedEvent[]): Promise<readonly string[]>;
}
