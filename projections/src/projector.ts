import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@fsm/eventstore';
import type { ReplayRows } from './replay-rows.js';

/**
 * A read model. The runner owns transactions and checkpoints: `apply` runs
 * inside the runner's transaction, together with the checkpoint update, so a
 * batch is applied exactly once whatever happens to the process.
 *
 * Batch first, as emmett's projections take events: `apply` is the one writer
 * of the read model and receives a batch of events (its share of the log, in
 * log order). Live and in a rebuild the runner passes a projector its whole
 * share of the batch; after a failed batch it passes one event at a time to
 * find the culprit (a batch of one). Either way the same code writes the rows.
 * A projector that handles one event at a time is written with
 * `eventByEvent` instead of looping itself.
 *
 * `apply` must still be idempotent (a rebuild replays everything; a redelivery
 * after a crash passes events already applied): a projector guards on the
 * stream revision it last applied.
 */
export interface Projector {
  /** Unique, stable; also names its tables' prefix. */
  readonly name: string;
  /** Bump when tables or handling change: the runner then rebuilds all read models. */
  readonly version: number;
  /**
   * DDL creating its tables in schema `rm`, with the indexes `apply` itself
   * reads through (idempotent: IF NOT EXISTS).
   */
  readonly setupSql: string;
  /**
   * DDL creating the indexes only the screens' queries read (idempotent). A
   * blue/green rebuild creates them once its replay has caught up, each in
   * one sorted pass, instead of updating every one of them for every row
   * version of the replay (at 1M tickets the indexes no longer fit in memory
   * and their random inserts were most of Postgres' work); otherwise they are
   * created with the tables.
   */
  readonly queryIndexesSql?: string;
  /** Event types it handles; others are not passed to `apply`. */
  readonly handles: readonly string[];
  /**
   * Names of the projectors whose tables `apply` reads (copies a client's
   * agency into a site, ...). They must be registered before this one. The
   * runner gives readers and their sources one event at a time, in log order
   * across them, so a reader copies its sources as they stood at its event,
   * whatever the batch boundaries (a live batch and a rebuild batch leave the
   * same rows); the other projectors get their whole share of the batch at
   * once. When one of them is
   * stopped on an event, this one stops there too rather than copy stale rows
   * it could never correct.
   */
  readonly readsFrom?: readonly string[];
  /**
   * Applies these events (in log order, all of types in `handles`). Returns
   * the ids (e.g. ticket ids) whose rows changed, for live updates. In a
   * replay the runner also gives `replay`: the rows its last batches wrote,
   * which a folded read model starts from (replay-rows.ts).
   */
  apply(tx: PoolClient, events: readonly RecordedEvent[], replay?: Replay): Promise<readonly string[]>;
}

/** What a replay's batch comes with (runner/pipelined-replay.ts). */
export interface Replay {
  readonly rows: ReplayRows;
}

/** One event's writes, for a projector that handles its events one at a time. */
export type EventHandler = (tx: PoolClient, event: RecordedEvent) => Promise<readonly string[] | void>;

/**
 * The per-event adapter: a projector whose writes are a statement or two per
 * event applies a batch as its events one after the other, in log order.
 * Set-based projectors (rm.tickets, rm.ticket_sla, ...) write `apply` directly.
 */
export function eventByEvent(handle: EventHandler): Projector['apply'] {
  return async (tx, events) => {
    const changed = new Set<string>();
    for (const event of events) for (const id of (await handle(tx, event)) ?? []) changed.add(id);
    return [...changed];
  };
}
