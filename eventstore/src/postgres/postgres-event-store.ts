import { EventEmitter } from 'node:events';
import pg from 'pg';
import { assertAppendInput } from '../append-input.js';
import { ConcurrencyError, StreamNotFoundError } from '../errors.js';
import { metadataFromStore } from '../metadata.js';
import type {
  AllFilter,
  AllSlice,
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StoreHealth,
  SubscribeOptions,
  Subscription,
} from '../port.js';
import { comparePositionPairs, POSITION_WIDTH } from '../positions.js';
import { AppendListener } from './append-listener.js';
import { appendStatement, type AppendRow } from './append-statement.js';
import { NotifyCoalescer } from './notify-coalescer.js';
import { startPollingSubscription } from './polling-subscription.js';
import { formatPostgresPosition, parsePostgresPosition } from './positions.js';
import { assertSchemaName, migrateSchema, notificationChannel } from './schema.js';

export interface PostgresEventStoreOptions {
  /** A pool to share; the store then never ends it. Give it an 'error' listener of your own. */
  pool?: pg.Pool;
  /** Used when no pool is given; the store owns (and ends) the pool it creates. */
  connectionString?: string;
  /** Postgres schema holding the tables and the append function. */
  schema?: string;
  /** Default number of events per subscription batch and per `readAll`. */
  batchSize?: number;
  /** Longest a caught-up subscriber waits before reading again when no wake-up came. */
  pollIntervalMs?: number;
  /** Pause before retrying a failed read or a failed batch handler. */
  retryDelayMs?: number;
  /** Shown in pg_stat_activity; the LISTEN connection gets a ':listen' suffix. */
  applicationName?: string;
  /** Send the cross-process NOTIFY after appends (default true). */
  notify?: boolean;
  /** Where background errors go (LISTEN connection drops, failed NOTIFY); default: ignored. */
  onBackgroundError?: (error: unknown) => void;
}

export interface PostgresEventStore extends EventStore {
  readonly kind: 'postgres';
  readonly schema: string;
  /** Creates or updates the schema; idempotent and safe to run from several processes at once. */
  migrate(): Promise<void>;
}

const DEFAULT_SCHEMA = 'es';
const DEFAULT_BATCH_SIZE = 500;
const DEFAULT_POLL_INTERVAL_MS = 500;
const DEFAULT_RETRY_DELAY_MS = 500;
const DEFAULT_APPLICATION_NAME = 'fsm-eventstore';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** Lost compare-and-sets ('any' / 'stream_exists' under contention) retried before giving up. */
const MAX_APPEND_ATTEMPTS = 50;

interface EventRow {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_version: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: Date;
  /** `formatPostgresPosition(transaction_id, global_position)`, spelled by Postgres (a replay reads millions). */
  position: string;
}

const EVENT_COLUMNS =
  'e.global_position, e.transaction_id, e.stream_id, e.stream_version, e.event_id, e.type, e.data, e.metadata, e.recorded_at, ' +
  `lpad(e.transaction_id::text, ${POSITION_WIDTH}, '0') || '-' || lpad(e.global_position::text, ${POSITION_WIDTH}, '0') AS position`;

export function createPostgresEventStore(options: PostgresEventStoreOptions = {}): PostgresEventStore {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  assertSchemaName(schema);
  const s = `"${schema}"`;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const pollIntervalMs = Math.min(options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, 60_000);
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const applicationName = options.applicationName ?? DEFAULT_APPLICATION_NAME;
  const onBackgroundError = options.onBackgroundError ?? (() => undefined);
  const channel = notificationChannel(schema);

  const ownsPool = !options.pool;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString ?? DEFAULT_DATABASE_URL,
      application_name: applicationName,
    });
  // An idle pooled connection that dies (server restart, pg_terminate_backend)
  // emits 'error' on the pool; unhandled, that would crash the process.
  if (ownsPool) pool.on('error', onBackgroundError);

  // Wakes this process's subscribers right after an append commits, without a round trip.
  const wakeups = new EventEmitter();
  wakeups.setMaxListeners(0);
  const wake = () => wakeups.emit('wake');

  const notifier = options.notify === false ? null : new NotifyCoalescer(pool, channel, onBackgroundError);
  const listener = new AppendListener({
    connection: { ...(pool.options as pg.ClientConfig), application_name: `${applicationName}:listen` },
    channel,
    onWake: wake,
    onError: onBackgroundError,
    reconnectDelayMs: retryDelayMs,
  });
  let activeSubscriptions = new Set<Subscription>();
  let closed = false;

  const toRecordedEvent = (row: EventRow): RecordedEvent => ({
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: metadataFromStore(row.metadata, row.recorded_at),
    streamId: row.stream_id,
    revision: Number(row.stream_version),
    position: row.position,
  });

  const assertOpen = () => {
    if (closed) throw new Error('the event store is closed');
  };

  async function appendToStream(stream: string, events: readonly NewEvent[], { expectedRevision }: AppendOptions): Promise<AppendResult> {
    assertOpen();
    assertAppendInput(stream, events, expectedRevision);
    const statement = appendStatement(schema, stream, events, expectedRevision);
    for (let attempt = 1; ; attempt++) {
      let row: AppendRow | undefined;
      try {
        row = (await pool.query<AppendRow>(statement.text, statement.values)).rows[0];
      } catch (error) {
        // Two copies of one append racing under 'any' can both pass the
        // idempotency check; the loser hits the event_id index. Running it
        // again finds the winner's events and answers as a retry would.
        if (isEventIdViolation(error) && attempt < 2 && !hasDuplicateIds(events)) continue;
        throw error;
      }
      if (!row) throw new Error('append_to_stream returned no row');
      if (row.out_status === 'ok') {
        wake();
        notifier?.request();
        return {
          nextExpectedRevision: Number(row.out_version),
          position: formatPostgresPosition(row.out_transaction_id ?? '0', row.out_global_position ?? '0'),
        };
      }
      if (row.out_status === 'retry' && attempt < MAX_APPEND_ATTEMPTS) continue;
      throw new ConcurrencyError(stream, expectedRevision, Number(row.out_version));
    }
  }

  async function readStream(stream: string, readOptions: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    assertOpen();
    const backwards = readOptions.direction === 'backwards';
    const maxCount = readOptions.maxCount ?? null;
    if (maxCount !== null && (!Number.isSafeInteger(maxCount) || maxCount < 0)) throw new TypeError(`maxCount must be a non-negative integer`);
    const from = readOptions.fromRevision ?? null;
    // One statement: the stream row tells "missing" apart from "nothing in range".
    const result = await pool.query<EventRow & { stream_exists: boolean }>(
      `SELECT true AS stream_exists, ${EVENT_COLUMNS}
         FROM ${s}.streams st
         LEFT JOIN LATERAL (
           SELECT * FROM ${s}.events ev
            WHERE ev.stream_id = st.stream_id
              AND ($2::bigint IS NULL OR ev.stream_version ${backwards ? '<=' : '>='} $2::bigint)
            ORDER BY ev.stream_version ${backwards ? 'DESC' : 'ASC'}
            LIMIT $3
         ) e ON true
        WHERE st.stream_id = $1
        ORDER BY e.stream_version ${backwards ? 'DESC' : 'ASC'}`,
      [stream, from, maxCount],
    );
    if (result.rows.length === 0) throw new StreamNotFoundError(stream);
    return result.rows.filter((row) => row.event_id !== null).map(toRecordedEvent);
  }

  /**
   * The subscriber read. Only events whose transaction id is below the oldest
   * transaction still running are read: every such transaction has finished,
   * and any transaction that starts later gets a larger id, so nothing can
   * ever appear behind the checkpoint. In the same statement (same snapshot)
   * it finds the newest such event of any kind: when the page is not full the
   * reader has seen everything up to there, so the checkpoint moves to it even
   * if the filter matched nothing.
   */
  async function readSlice(from: Position | null, maxCount: number, filter: AllFilter | undefined): Promise<AllSlice> {
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new TypeError(`maxCount must be a positive integer`);
    const start = from === null ? { transactionId: '0', globalPosition: '0' } : parsePostgresPosition(from);
    const values: unknown[] = [start.transactionId, start.globalPosition, maxCount];
    const conditions: string[] = [];
    if (filter?.categories) {
      values.push([...filter.categories]);
      conditions.push(`AND split_part(e.stream_id, '-', 1) = ANY($${values.length}::text[])`);
    }
    if (filter?.eventTypes) {
      values.push([...filter.eventTypes]);
      conditions.push(`AND e.type = ANY($${values.length}::text[])`);
    }
    const result = await pool.query<(EventRow | Record<keyof EventRow, null>) & { head_transaction_id: string; head_global_position: string }>(
      `WITH bound AS MATERIALIZED (
         SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin
       ),
       head AS (
         SELECT h.transaction_id AS head_transaction_id, h.global_position AS head_global_position
           FROM ${s}.events h
          WHERE h.transaction_id < (SELECT xmin FROM bound)
          ORDER BY h.transaction_id DESC, h.global_position DESC
          LIMIT 1
       ),
       page AS (
         SELECT ${EVENT_COLUMNS}
           FROM ${s}.events e
          WHERE e.transaction_id < (SELECT xmin FROM bound)
            AND (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint)
            ${conditions.join('\n            ')}
          ORDER BY e.transaction_id, e.global_position
          LIMIT $3
       )
       SELECT head.*, page.* FROM head LEFT JOIN page ON true
        ORDER BY page.transaction_id, page.global_position`,
      values,
    );
    const rows = result.rows;
    const events = rows.filter((row): row is EventRow & typeof row => row.event_id !== null).map(toRecordedEvent);
    const caughtUp = events.length < maxCount;
    const last = events.at(-1)?.position ?? from;
    const headRow = rows[0];
    const head = headRow ? formatPostgresPosition(headRow.head_transaction_id, headRow.head_global_position) : null;
    let checkpoint = last;
    if (caughtUp && head !== null && (checkpoint === null || comparePositionPairs(head, checkpoint) > 0)) checkpoint = head;
    return { events, checkpoint, caughtUp };
  }

  async function readAll(readOptions: ReadAllOptions = {}): Promise<AllSlice> {
    assertOpen();
    return readSlice(readOptions.from ?? null, readOptions.maxCount ?? batchSize, readOptions.filter);
  }

  function subscribeToAll(subscribeOptions: SubscribeOptions): Subscription {
    assertOpen();
    if (subscribeOptions.from != null) parsePostgresPosition(subscribeOptions.from);
    if (activeSubscriptions.size === 0) listener.start();
    const subscription = startPollingSubscription(
      {
        read: readSlice,
        onWake(callback) {
          wakeups.on('wake', callback);
          return () => wakeups.off('wake', callback);
        },
        comparePositions: comparePositionPairs,
        defaultBatchSize: batchSize,
        pollIntervalMs,
        retryDelayMs,
      },
      subscribeOptions,
      () => {
        activeSubscriptions.delete(subscription);
        if (activeSubscriptions.size === 0) void listener.stop();
      },
    );
    activeSubscriptions.add(subscription);
    return subscription;
  }

  async function headPosition(): Promise<Position | null> {
    assertOpen();
    const result = await pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id, global_position
         FROM ${s}.events
        WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ORDER BY transaction_id DESC, global_position DESC
        LIMIT 1`,
    );
    const row = result.rows[0];
    return row ? formatPostgresPosition(row.transaction_id, row.global_position) : null;
  }

  /**
   * One statement, outside the subscribers' bound: a plain MVCC read sees
   * every committed event, so the head here is the true one even while an
   * open transaction keeps `headPosition()` (and every subscriber) behind.
   * The horizon is the oldest transaction holding an id, sessions and
   * prepared (two-phase) ones alike, across the whole cluster: transaction
   * ids are cluster-wide, so a writer left open in another database holds
   * this store's readers back just the same. Another role's transaction is
   * listed with its start time and state only under pg_read_all_stats (or as
   * superuser); without it they come back null.
   */
  async function health(from: Position | null): Promise<StoreHealth> {
    assertOpen();
    const start = from === null ? { transactionId: '0', globalPosition: '0' } : parsePostgresPosition(from);
    const result = await pool.query<{
      head_transaction_id: string | null;
      head_global_position: string | null;
      head_recorded_at: Date | null;
      visible_transaction_id: string | null;
      visible_global_position: string | null;
      pending_transaction_id: string | null;
      pending_global_position: string | null;
      pending_recorded_at: Date | null;
      pending_age: number | null;
      holder_transaction: string | null;
      holder_started_at: Date | null;
      holder_age: number | null;
      holder_application: string | null;
      holder_database: string | null;
      holder_state: string | null;
    }>(
      `WITH head AS (
         SELECT transaction_id, global_position, recorded_at FROM ${s}.events
          ORDER BY transaction_id DESC, global_position DESC LIMIT 1
       ),
       visible AS (
         SELECT transaction_id, global_position FROM ${s}.events
          WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
          ORDER BY transaction_id DESC, global_position DESC LIMIT 1
       ),
       pending AS (
         SELECT transaction_id, global_position, recorded_at FROM ${s}.events
          WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
          ORDER BY transaction_id, global_position LIMIT 1
       ),
       holder AS (
         SELECT * FROM (
           SELECT backend_xid::text AS transaction, xact_start AS started_at, application_name, datname::text AS database,
                  state, age(backend_xid) AS xid_age
             FROM pg_stat_activity WHERE backend_xid IS NOT NULL
           UNION ALL
           SELECT transaction::text, prepared, NULL, database::text, 'prepared', age(transaction)
             FROM pg_prepared_xacts
         ) h ORDER BY xid_age DESC LIMIT 1
       )
       SELECT head.transaction_id AS head_transaction_id, head.global_position AS head_global_position, head.recorded_at AS head_recorded_at,
              visible.transaction_id AS visible_transaction_id, visible.global_position AS visible_global_position,
              pending.transaction_id AS pending_transaction_id, pending.global_position AS pending_global_position,
              pending.recorded_at AS pending_recorded_at,
              greatest(0, extract(epoch FROM now() - pending.recorded_at))::float8 AS pending_age,
              holder.transaction AS holder_transaction, holder.started_at AS holder_started_at,
              -- greatest() skips nulls: a start time hidden from this role must stay an unknown age, not 0.
              CASE WHEN holder.started_at IS NOT NULL THEN greatest(0, extract(epoch FROM now() - holder.started_at))::float8 END AS holder_age,
              holder.application_name AS holder_application, holder.database AS holder_database, holder.state AS holder_state
         FROM (SELECT 1) one
         LEFT JOIN head ON true LEFT JOIN visible ON true LEFT JOIN pending ON true LEFT JOIN holder ON true`,
      [start.transactionId, start.globalPosition],
    );
    const row = result.rows[0];
    if (!row) throw new Error('health query returned no row');
    return {
      head:
        row.head_transaction_id !== null && row.head_global_position !== null && row.head_recorded_at !== null
          ? { position: formatPostgresPosition(row.head_transaction_id, row.head_global_position), recordedAt: row.head_recorded_at.toISOString() }
          : null,
      visibleHead:
        row.visible_transaction_id !== null && row.visible_global_position !== null
          ? formatPostgresPosition(row.visible_transaction_id, row.visible_global_position)
          : null,
      horizon:
        row.holder_transaction !== null
          ? {
              transaction: row.holder_transaction,
              startedAt: row.holder_started_at?.toISOString() ?? null,
              ageSeconds: row.holder_age,
              application: row.holder_application || null,
              database: row.holder_database,
              state: row.holder_state,
            }
          : null,
      oldestPending:
        row.pending_transaction_id !== null && row.pending_global_position !== null && row.pending_recorded_at !== null
          ? {
              position: formatPostgresPosition(row.pending_transaction_id, row.pending_global_position),
              recordedAt: row.pending_recorded_at.toISOString(),
              ageSeconds: row.pending_age ?? 0,
            }
          : null,
    };
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    const subscriptions = [...activeSubscriptions];
    activeSubscriptions = new Set();
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await listener.stop();
    await notifier?.drain();
    if (ownsPool) await pool.end();
  }

  let identity: Promise<string> | undefined;
  /** The schema's log_identity row (created by the migration), read once. */
  function logIdentity(): Promise<string> {
    identity ??= pool.query<{ log_id: string }>(`SELECT log_id::text AS log_id FROM ${s}.log_identity`).then(({ rows }) => {
      const found = rows[0]?.log_id;
      if (!found) throw new Error(`${schema}.log_identity is empty: run the migration`);
      return found;
    });
    identity.catch(() => {
      identity = undefined;
    });
    return identity;
  }

  return {
    kind: 'postgres',
    schema,
    migrate: () => migrateSchema(pool, schema),
    logIdentity,
    appendToStream,
    readStream,
    readAll,
    subscribeToAll,
    headPosition,
    health,
    comparePositions: comparePositionPairs,
    close,
  };
}

function isEventIdViolation(error: unknown): boolean {
  const pgError = error as { code?: string; constraint?: string };
  return pgError.code === '23505' && typeof pgError.constraint === 'string' && pgError.constraint.includes('event_id');
}

function hasDuplicateIds(events: readonly NewEvent[]): boolean {
  return new Set(events.map((event) => event.id)).size !== events.length;
}
