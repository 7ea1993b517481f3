import {
  START,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type CaughtUp,
  type KurrentDBClient,
} from '@kurrent/kurrentdb-client';
import type { Position, RecordedEvent, SubscribeOptions, Subscription } from '../port.js';
import { comparePositionPairs, maxPosition } from '../positions.js';
import { isIncluded, serverFilter } from './kurrent-filters.js';
import { isPermanentSubscriptionError, resubscribeDelayMs } from './kurrent-policies.js';
import { formatKurrentPosition, parseKurrentPosition } from './positions.js';

export interface KurrentSubscriptionDeps {
  client: KurrentDBClient;
  toRecordedEvent(resolved: NonNullable<AllStreamResolvedEvent['event']>): RecordedEvent;
  defaultBatchSize: number;
  retryDelayMs: number;
}

type QueueItem =
  | { kind: 'event'; event: RecordedEvent }
  | { kind: 'checkpoint'; position: Position }
  | { kind: 'caughtUp'; position: Position | null }
  | { kind: 'fellBehind' };

/**
 * A catch-up subscription to $all, turned into the port's batches.
 *
 * Events are queued as they arrive and handed over in batches, one batch at a
 * time; when the queue holds two batches the server stream is paused
 * (back-pressure through gRPC flow control). The checkpoint moves only after
 * the handler succeeded. Filtered-out stretches still move it, through the
 * server's filter checkpoints and the position it reports on catching up.
 *
 * Those two arrive as stream events ('caughtUp') or callbacks, not in the
 * data flow, and may fire while earlier events still sit in the readable
 * buffer. So a marker only enters the queue once that buffer is empty, i.e.
 * once every event that came before it has been queued: a checkpoint can never
 * overtake an event it covers.
 *
 * On an error (or the server ending the stream) the subscription reports it,
 * drops what it had queued, waits, and subscribes again from the last
 * checkpoint the handler accepted. The wait doubles with each failure in a
 * row (resubscribeDelayMs) and starts again once events or the head arrive.
 * An error no resubscription can cure (isPermanentSubscriptionError: access
 * denied, unsupported, invalid) is reported and ends the subscription.
 */
export function startKurrentSubscription(
  deps: KurrentSubscriptionDeps,
  options: SubscribeOptions,
  onStopped: () => void,
): Subscription {
  const batchSize = options.batchSize ?? deps.defaultBatchSize;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new TypeError(`batch size must be a positive integer, got ${batchSize}`);
  if (options.from != null) parseKurrentPosition(options.from);

  let checkpoint: Position | null = options.from ?? null;
  let stopped = false;
  let generation = 0;
  let source: AllStreamSubscription | null = null;
  let queue: QueueItem[] = [];
  let failure: { error: unknown } | null = null;
  let live = false;
  let wakeConsumer: (() => void) | null = null;

  const signal = () => {
    const wake = wakeConsumer;
    wakeConsumer = null;
    wake?.();
  };

  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing error reporter must not stop delivery.
    }
  };

  /** Sleeps before a retry; only `stop()` cuts it short. */
  let interruptPause: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        interruptPause = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      interruptPause = finish;
    });

  const waitForItems = () =>
    new Promise<void>((resolve) => {
      wakeConsumer = resolve;
    });

  const open = () => {
    const mine = ++generation;
    queue = [];
    failure = null;
    live = false;
    let lastQueued = checkpoint;
    let pendingMarkers: QueueItem[] = [];

    const current = () => mine === generation;
    const addMarker = (marker: QueueItem) => {
      if (!current()) return;
      if (subscription.readableLength === 0) {
        queue.push(marker);
        signal();
      } else {
        pendingMarkers.push(marker);
      }
    };
    const fail = (error: unknown) => {
      if (!current() || failure) return;
      failure = { error };
      signal();
    };

    let subscription: AllStreamSubscription;
    try {
      subscription = deps.client.subscribeToAll(
        {
          fromPosition: checkpoint === null ? START : parseKurrentPosition(checkpoint),
          filter: serverFilter(options.filter, (_subscription, position) =>
            addMarker({ kind: 'checkpoint', position: formatKurrentPosition(position) }),
          ),
        },
        { highWaterMark: batchSize },
      );
    } catch (error) {
      fail(error);
      return;
    }
    source = subscription;

    subscription.on('data', (resolved: AllStreamResolvedEvent) => {
      if (!current()) return;
      const recorded = resolved.event;
      if (recorded?.position) {
        const position = formatKurrentPosition(recorded.position);
        // Subscribing from a position is exclusive, but a resubscription must
        // never hand the same event over twice, so check anyway.
        if (lastQueued === null || comparePositionPairs(position, lastQueued) > 0) {
          lastQueued = position;
          try {
            queue.push(
              isIncluded(recorded, options.filter)
                ? { kind: 'event', event: deps.toRecordedEvent(recorded) }
                : { kind: 'checkpoint', position },
            );
          } catch (error) {
            // Thrown from a 'data' listener it would crash the process; resubscribe instead.
            fail(error);
            return;
          }
        }
      }
      if (subscription.readableLength === 0 && pendingMarkers.length > 0) {
        queue.push(...pendingMarkers);
        pendingMarkers = [];
      }
      if (queue.length >= (options.readAhead === false ? 1 : 2) * batchSize) subscription.pause();
      signal();
    });
    subscription.on('caughtUp', (info: CaughtUp) =>
      addMarker({ kind: 'caughtUp', position: info.position ? formatKurrentPosition(info.position) : null }),
    );
    subscription.on('fellBehind', () => addMarker({ kind: 'fellBehind' }));
    subscription.on('error', fail);
    subscription.on('end', () => fail(new Error('KurrentDB ended the $all subscription')));
  };

  const closeSource = async () => {
    const closing = source;
    source = null;
    generation++;
    if (!closing) return;
    // Late errors from a cancelled stream must not become unhandled 'error' events.
    closing.on('error', () => undefined);
    await closing.unsubscribe().catch(() => undefined);
  };

  const deliver = async (events: RecordedEvent[], next: Position | null, caughtUp: boolean): Promise<boolean> => {
    while (!stopped) {
      try {
        await options.onBatch({ events, checkpoint: next, caughtUp });
        return true;
      } catch (error) {
        report(error);
        await pause(deps.retryDelayMs);
      }
    }
    return false;
  };

  const run = async () => {
    let failures = 0;
    open();
    while (!stopped) {
      if (failure) {
        const { error } = failure;
        report(error);
        await closeSource();
        if (isPermanentSubscriptionError(error)) break;
        failures++;
        await pause(resubscribeDelayMs(failures, deps.retryDelayMs));
        if (stopped) break;
        open();
        continue;
      }
      if (queue.length === 0) {
        await waitForItems();
        continue;
      }
      // Something came through since the last resubscription: the connection works again.
      failures = 0;
      const events: RecordedEvent[] = [];
      let next = checkpoint;
      let reachedHead = false;
      while (queue.length > 0 && events.length < batchSize) {
        const item = queue.shift() as QueueItem;
        switch (item.kind) {
          case 'event':
            events.push(item.event);
            next = maxPosition(next, item.event.position);
            break;
          case 'checkpoint':
            next = maxPosition(next, item.position);
            break;
          case 'caughtUp':
            live = true;
            reachedHead = true;
            next = maxPosition(next, item.position);
            break;
          case 'fellBehind':
            live = false;
            break;
        }
      }
      const advanced = next !== null && (checkpoint === null || comparePositionPairs(next, checkpoint) > 0);
      const caughtUp = live && queue.length === 0;
      if (events.length > 0 || advanced) {
        if (!(await deliver(events, next, caughtUp))) break;
        checkpoint = next;
      }
      if (caughtUp && (events.length > 0 || advanced || reachedHead)) {
        try {
          options.onCaughtUp?.(checkpoint);
        } catch (error) {
          report(error);
        }
      }
      if (source?.isPaused() && queue.length < batchSize) source.resume();
    }
    await closeSource();
  };

  const done = run().finally(onStopped);

  return {
    async stop() {
      stopped = true;
      signal();
      interruptPause?.();
      await done;
    },
  };
}
