/**
 * The event-store port. Every adapter (Postgres, KurrentDB) implements it and
 * passes the same contract suite (`src/contract/*.test.ts`).
 *
 * Positions are opaque strings produced by the adapter. Both adapters emit
 * fixed-width, zero-padded strings, so plain string comparison orders them;
 * `comparePositions` is still the one comparator callers should use.
 */

/** Revisions count from 0 on every adapter. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export type Position = string;

export interface EventMetadata {
  /** Who caused the event (user id), null for anonymous/system. */
  userId: string | null;
  /** Display name of that user at the time, for audit screens. */
  userName?: string | null;
  correlationId: string;
  causationId: string | null;
  /** ISO timestamp set by the store when the event is written. */
  recordedAt: string;
  [key: string]: unknown;
}

export interface NewEvent {
  /** uuid; re-appending the same ids at the same revisions is a no-op. */
  id: string;
  type: string;
  data: unknown;
  metadata?: Partial<Omit<EventMetadata, 'recordedAt'>> & Record<string, unknown>;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  type: Type;
  data: Data;
  metadata: EventMetadata;
  streamId: string;
  /** 0-based revision of this event in its stream. */
  revision: number;
  /** Position in the global log (subscription order). */
  position: Position;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event written (or found, on an idempotent retry). */
  nextExpectedRevision: number;
  /** Global position of the last event written. */
  position: Position;
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive. Defaults to the first (forwards) or last (backwards) event. */
  fromRevision?: number;
  maxCount?: number;
}

export interface AllFilter {
  /** Stream categories (the part of the stream id before the first '-'). */
  categories?: readonly string[];
  /** Event types. */
  eventTypes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive lower bound; null or undefined reads from the very start. */
  from?: Position | null;
  maxCount?: number;
  filter?: AllFilter;
}

export interface AllSlice {
  events: RecordedEvent[];
  /**
   * Where the next read starts (exclusive). Advances even when the filter
   * matched nothing, so filtered readers never re-scan what they skipped.
   */
  checkpoint: Position | null;
  /** True when this slice reached the current head of the log. */
  caughtUp: boolean;
}

export interface SubscriptionBatch extends AllSlice {}

export interface SubscribeOptions {
  /** Exclusive start; null reads from the very start. */
  from: Position | null;
  batchSize?: number;
  filter?: AllFilter;
  /**
   * Whether the next batch is read while one is handled (default true), so
   * the handler's statements and the read overlap. A handler that keeps two
   * batches in flight itself (the projections runner's pipelined replay)
   * turns it off: on two cores a third batch in memory bought no speed.
   */
  readAhead?: boolean;
  /**
   * Called with each batch, one at a time. The subscription only moves past a
   * batch once the promise resolves; if it rejects, the subscription retries
   * the same batch after a pause (and reports the error to `onError`).
   */
  onBatch: (batch: SubscriptionBatch) => Promise<void>;
  /** Called each time the subscription reaches the head of the log. */
  onCaughtUp?: (checkpoint: Position | null) => void;
  onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops after the batch in progress, if any. */
  stop(): Promise<void>;
}

/** The transaction holding every subscriber's visibility horizon back (Postgres only). */
export interface HorizonHolder {
  /** Transaction id (xid), as text. */
  transaction: string;
  /** When that transaction started (or was prepared, for a two-phase one); null when the role may not see it. */
  startedAt: string | null;
  /** Seconds it has been open, by the server's clock; null with `startedAt`. */
  ageSeconds: number | null;
  /** Its session's application_name; null for a prepared (two-phase) transaction or when hidden. */
  application: string | null;
  /** Its database: the horizon is cluster-wide, so it may be another database on the same server. */
  database: string | null;
  /** pg_stat_activity state ('active', 'idle in transaction', ...), 'prepared' for a two-phase one. */
  state: string | null;
}

/** What health reports about the log, read without the subscribers' visibility horizon. */
export interface StoreHealth {
  /** The newest committed event, even one subscribers cannot see yet; null on an empty log. */
  head: { position: Position; recordedAt: string } | null;
  /** The newest event a subscriber can see now (what `headPosition()` returns). */
  visibleHead: Position | null;
  /** The oldest open transaction holding an id, which holds subscribers back; null when none (or unknown on KurrentDB). */
  horizon: HorizonHolder | null;
  /** The first committed event after `from`, i.e. the oldest one not yet applied; null when none is left. */
  oldestPending: { position: Position; recordedAt: string; ageSeconds: number } | null;
}

export interface EventStore {
  readonly kind: 'postgres' | 'kurrent';
  appendToStream(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /** Throws StreamNotFoundError when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<AllSlice>;
  subscribeToAll(options: SubscribeOptions): Subscription;
  /** Position of the newest event a subscriber can see, null on an empty log. */
  headPosition(): Promise<Position | null>;
  /** For health: the true head, what holds readers back, and how old the oldest event after `from` is. */
  health(from: Position | null): Promise<StoreHealth>;
  comparePositions(a: Position, b: Position): number;
  /**
   * The log's identity: a uuid drawn once per event-store database (Postgres:
   * the schema's `log_identity` row; KurrentDB: the `$fsm-log-identity` system
   * stream), never part of the log itself (not read, copied or counted). What
   * is kept outside the log for this log only (the job queues' Redis keys) is
   * named after it, so two deployments never share it (issue 32).
   */
  logIdentity(): Promise<string>;
  close(): Promise<void>;
}

export function categoryOf(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
