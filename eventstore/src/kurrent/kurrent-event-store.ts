import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  FORWARDS,
  KurrentDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  excludeSystemEvents,
  type AllStreamRecordedEvent,
  type AppendStreamState,
  type EventData,
  type Position as KurrentPosition,
} from '@kurrent/kurrentdb-client';
import { assertAppendInput } from '../append-input.js';
import { ConcurrencyError, StreamNotFoundError } from '../errors.js';
import { metadataFromStore, metadataToStore } from '../metadata.js';
import type {
  AllFilter,
  AllSlice,
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  Position,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StoreHealth,
  SubscribeOptions,
  Subscription,
} from '../port.js';
import { comparePositionPairs, maxPosition } from '../positions.js';
import { isIncluded, serverFilter } from './kurrent-filters.js';

/** The system stream (and event type) holding the log's identity. */
const LOG_IDENTITY_STREAM = '$fsm-log-identity';
import { PermanentSubscriptionError, findStoredAppend } from './kurrent-policies.js';
import { startKurrentSubscription } from './kurrent-subscription.js';
import { formatKurrentPosition, isRealPosition, parseKurrentPosition } from './positions.js';

export interface KurrentEventStoreOptions {
  /** e.g. `kurrentdb://127.0.0.1:2113?tls=false`; ignored when a client is given. */
  connectionString?: string;
  /** A client to share; the store then never disposes of it. */
  client?: KurrentDBClient;
  /** Default number of events per subscription batch and per `readAll`. */
  batchSize?: number;
  /** Pause before retrying a failed batch handler; the first pause before resubscribing after an error (then doubled, up to 30 s). */
  retryDelayMs?: number;
}

export interface KurrentEventStore extends EventStore {
  readonly kind: 'kurrent';
  /** Nothing to migrate on KurrentDB; present so callers treat both adapters alike. */
  migrate(): Promise<void>;
}

const DEFAULT_BATCH_SIZE = 500;
const DEFAULT_RETRY_DELAY_MS = 1_000;
/** Writers that got in between the read and the write of an 'any' append, retried before giving up (as on Postgres). */
const MAX_CHECKED_APPEND_ATTEMPTS = 50;

type KurrentRecordedEvent = AllStreamRecordedEvent;

export function createKurrentEventStore(options: KurrentEventStoreOptions): KurrentEventStore {
  const ownsClient = !options.client;
  const client =
    options.client ??
    KurrentDBClient.connectionString(
      options.connectionString ??
        (() => {
          throw new TypeError('createKurrentEventStore needs a connectionString or a client');
        })(),
    );
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const subscriptions = new Set<Subscription>();
  let closed = false;

  const assertOpen = () => {
    if (closed) throw new Error('the event store is closed');
  };

  // KurrentDB revisions already count from 0, like the port's, so they pass through unchanged.
  const toRecordedEvent = (event: RecordedEventLike): RecordedEvent => {
    if (!isRealPosition(event.position)) {
      throw new PermanentSubscriptionError(`KurrentDB returned event ${event.id} without a position (the server must be 22.6 or newer)`);
    }
    return {
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: metadataFromStore(event.metadata, event.created),
      streamId: event.streamId,
      revision: Number(event.revision),
      position: formatKurrentPosition(event.position),
    };
  };

  async function appendToStream(stream: string, events: readonly NewEvent[], { expectedRevision }: AppendOptions): Promise<AppendResult> {
    assertOpen();
    assertAppendInput(stream, events, expectedRevision);
    // The server would store both copies; the port promises all or nothing with distinct ids.
    if (new Set(events.map((event) => event.id)).size !== events.length) {
      throw new TypeError(`duplicate event id in one append to ${stream}`);
    }
    const eventData = events.map(
      (event) =>
        ({
          id: event.id,
          contentType: 'application/json',
          type: event.type,
          data: event.data === undefined ? null : event.data,
          metadata: metadataToStore(event),
        }) as unknown as EventData,
    );
    if (expectedRevision === 'any' || expectedRevision === 'stream_exists') return appendChecked(stream, events, eventData, expectedRevision);
    return appendOnce(stream, eventData, expectedRevision, expectedRevision);
  }

  /** One append with `state` as the expected revision; a conflict reports `expected`, what the caller asked for. */
  async function appendOnce(stream: string, eventData: EventData[], state: ExpectedRevision, expected: ExpectedRevision): Promise<AppendResult> {
    let result;
    try {
      result = await client.appendToStream(stream, eventData, { streamState: toStreamState(state) });
    } catch (error) {
      if (isWrongExpectedVersion(error)) {
        const actual = error.actualState === NO_STREAM ? -1 : Number(error.actualState);
        throw new ConcurrencyError(stream, expected, actual);
      }
      throw error;
    }
    // With `throwOnAppendFailure=false` in the connection string the client
    // answers a conflict instead of throwing it; taken as a success it would be a lost update.
    if (!result.success) throw new ConcurrencyError(stream, expected, Number(result.nextExpectedRevision));
    const nextExpectedRevision = Number(result.nextExpectedRevision);
    // An idempotent retry comes back without a position: the first write's
    // position is that of the event now at the returned revision.
    const position = isRealPosition(result.position)
      ? formatKurrentPosition(result.position)
      : await positionOfRevision(stream, nextExpectedRevision);
    return { nextExpectedRevision, position };
  }

  /**
   * 'any' and 'stream_exists' without relying on the server's idempotency
   * check, which for them only remembers recent event ids (a bounded cache,
   * emptied by a restart): the stream is read, ids already stored as this
   * append would store them give back the first result, and otherwise the
   * events are written with the revision just read as the expected one, read
   * again when another writer got in first. The outcome appends of the
   * workers retry this way, on small streams of their own (one per report or
   * export), so the read stays short.
   */
  async function appendChecked(
    stream: string,
    events: readonly NewEvent[],
    eventData: EventData[],
    expected: 'any' | 'stream_exists',
  ): Promise<AppendResult> {
    const ids = events.map((event) => event.id);
    for (let attempt = 1; ; attempt++) {
      let stored: RecordedEvent[] = [];
      let exists = true;
      try {
        stored = await readStream(stream);
      } catch (error) {
        if (!(error instanceof StreamNotFoundError)) throw error;
        exists = false;
      }
      const current = stored.at(-1)?.revision ?? -1;
      if (!exists && expected === 'stream_exists') throw new ConcurrencyError(stream, expected, -1);
      const previous = findStoredAppend(stored, ids);
      if (previous.kind === 'stored') return { nextExpectedRevision: previous.last.revision, position: previous.last.position };
      if (previous.kind === 'mismatch') throw new ConcurrencyError(stream, expected, current);
      try {
        return await appendOnce(stream, eventData, exists ? current : 'no_stream', expected);
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_CHECKED_APPEND_ATTEMPTS) throw error;
      }
    }
  }

  async function positionOfRevision(stream: string, revision: number): Promise<Position> {
    const [event] = await readStream(stream, { fromRevision: revision, maxCount: 1 });
    if (!event || event.revision !== revision) throw new Error(`KurrentDB has no revision ${revision} in ${stream}`);
    return event.position;
  }

  async function readStream(stream: string, readOptions: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    assertOpen();
    const backwards = readOptions.direction === 'backwards';
    const maxCount = readOptions.maxCount;
    if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 0)) throw new TypeError('maxCount must be a non-negative integer');
    if (maxCount === 0) {
      // Still answer "not found" for a missing stream.
      await readStream(stream, { ...readOptions, maxCount: 1 });
      return [];
    }
    const events: RecordedEvent[] = [];
    try {
      const reading = client.readStream(stream, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: readOptions.fromRevision === undefined ? (backwards ? END : START) : BigInt(readOptions.fromRevision),
        ...(maxCount === undefined ? {} : { maxCount }),
      });
      for await (const resolved of reading) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (isMissingStream(error)) throw new StreamNotFoundError(stream);
      throw error;
    }
    return events;
  }

  async function lastEvent(): Promise<{ position: Position; created: Date } | null> {
    for await (const resolved of client.readAll({
      direction: BACKWARDS,
      fromPosition: END,
      maxCount: 1,
      filter: excludeSystemEvents(),
    })) {
      if (resolved.event && isRealPosition(resolved.event.position)) {
        return { position: formatKurrentPosition(resolved.event.position), created: resolved.event.created };
      }
    }
    return null;
  }

  async function headPosition(): Promise<Position | null> {
    assertOpen();
    return (await lastEvent())?.position ?? null;
  }

  /**
   * KurrentDB readers see every committed event at once: the head is the true
   * one and nothing holds them back, so there is no horizon to report.
   */
  async function health(from: Position | null): Promise<StoreHealth> {
    assertOpen();
    const [last, pending] = await Promise.all([lastEvent(), readAll({ from, maxCount: 1 })]);
    const next = pending.events[0];
    const ageOf = (iso: string) => Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
    return {
      head: last ? { position: last.position, recordedAt: last.created.toISOString() } : null,
      visibleHead: last?.position ?? null,
      horizon: null,
      oldestPending: next
        ? { position: next.position, recordedAt: next.metadata.recordedAt, ageSeconds: ageOf(next.metadata.recordedAt) }
        : null,
    };
  }

  /**
   * One page of $all after `from`. The head is read first: when the page
   * comes back short, the server has already shown everything up to at least
   * that head, so the checkpoint may move there even if nothing matched.
   */
  async function readAll(readOptions: ReadAllOptions = {}): Promise<AllSlice> {
    assertOpen();
    const from = readOptions.from ?? null;
    const maxCount = readOptions.maxCount ?? batchSize;
    if (!Number.isSafeInteger(maxCount) || maxCount < 1) throw new TypeError('maxCount must be a positive integer');
    const filter: AllFilter | undefined = readOptions.filter;
    const head = await headPosition();
    // Reading from a position includes the event at it, hence one more than asked.
    const requested = maxCount + 1;
    const raw: KurrentRecordedEvent[] = [];
    let received = 0;
    for await (const resolved of client.readAll({
      direction: FORWARDS,
      fromPosition: from === null ? START : parseKurrentPosition(from),
      maxCount: requested,
      filter: serverFilter(filter),
    })) {
      received++;
      if (resolved.event) raw.push(resolved.event);
    }
    const events: RecordedEvent[] = [];
    let scanned: Position | null = from;
    let consumedAll = true;
    for (const event of raw) {
      if (!isRealPosition(event.position)) continue;
      const position = formatKurrentPosition(event.position);
      if (from !== null && comparePositionPairs(position, from) <= 0) continue;
      if (events.length === maxCount) {
        consumedAll = false;
        break;
      }
      scanned = position;
      if (isIncluded(event, filter)) events.push(toRecordedEvent(event));
    }
    const caughtUp = consumedAll && received < requested;
    return { events, checkpoint: caughtUp ? maxPosition(scanned, head) : scanned, caughtUp };
  }

  function subscribeToAll(subscribeOptions: SubscribeOptions): Subscription {
    assertOpen();
    const subscription = startKurrentSubscription(
      { client, toRecordedEvent, defaultBatchSize: batchSize, retryDelayMs },
      subscribeOptions,
      () => subscriptions.delete(subscription),
    );
    subscriptions.add(subscription);
    return subscription;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
    if (ownsClient) await client.dispose();
  }

  let identity: Promise<string> | undefined;
  /**
   * The log's identity, in a system stream ('$' stream and event type): the
   * subscriptions, readAll, the head and the copy tool leave system events out,
   * so it is never taken for an event of the log. The first writer wins.
   */
  async function readOrCreateLogIdentity(): Promise<string> {
    const read = async (): Promise<string | null> => {
      try {
        for await (const resolved of client.readStream(LOG_IDENTITY_STREAM, { direction: FORWARDS, fromRevision: START, maxCount: 1 })) {
          const logId = (resolved.event?.data as { logId?: unknown } | undefined)?.logId;
          if (typeof logId === 'string') return logId;
        }
        return null;
      } catch (error) {
        if (isMissingStream(error)) return null;
        throw error;
      }
    };
    const existing = await read();
    if (existing) return existing;
    const logId = randomUUID();
    try {
      await client.appendToStream(
        LOG_IDENTITY_STREAM,
        [{ id: randomUUID(), contentType: 'application/json', type: LOG_IDENTITY_STREAM, data: { logId }, metadata: {} } as unknown as EventData],
        { streamState: NO_STREAM },
      );
      return logId;
    } catch (error) {
      if (!isWrongExpectedVersion(error)) throw error;
      const winner = await read();
      if (!winner) throw error;
      return winner;
    }
  }
  function logIdentity(): Promise<string> {
    assertOpen();
    identity ??= readOrCreateLogIdentity();
    identity.catch(() => {
      identity = undefined;
    });
    return identity;
  }

  return {
    kind: 'kurrent',
    migrate: async () => undefined,
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

/** What both the stream read and the $all read hand back for one event. */
type RecordedEventLike = {
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  streamId: string;
  revision: bigint;
  created: Date;
  position?: KurrentPosition;
};

function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return (
    error instanceof WrongExpectedVersionError ||
    (typeof error === 'object' && error !== null && (error as { type?: unknown }).type === ErrorType.WRONG_EXPECTED_VERSION)
  );
}

function isMissingStream(error: unknown): boolean {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  return type === ErrorType.STREAM_NOT_FOUND || type === ErrorType.STREAM_DELETED || type === ErrorType.STREAM_TOMBSTONED;
}
