import type { AllFilter, AllSlice, Position, SubscribeOptions, Subscription } from '../port.js';

export interface PollingSubscriptionDeps {
  /** One read of the log, after `from` (exclusive), as `readAll` does it. */
  read(from: Position | null, maxCount: number, filter: AllFilter | undefined): Promise<AllSlice>;
  /** Registers a wake-up callback (appends in this process or a NOTIFY); returns the unregister function. */
  onWake(listener: () => void): () => void;
  comparePositions(a: Position, b: Position): number;
  defaultBatchSize: number;
  pollIntervalMs: number;
  retryDelayMs: number;
}

/**
 * A pull subscription: read a slice after the checkpoint, hand it to the
 * handler, move the checkpoint only once the handler succeeded, repeat. When
 * caught up it sleeps until woken or until the poll interval ends, so a lost
 * wake-up costs at most one interval. Any read error (a dropped connection
 * included) is reported and the same read is tried again from the same
 * checkpoint after a pause: that is the whole recovery story.
 */
export function startPollingSubscription(
  deps: PollingSubscriptionDeps,
  options: SubscribeOptions,
  onStopped: () => void,
): Subscription {
  const batchSize = options.batchSize ?? deps.defaultBatchSize;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new TypeError(`batch size must be a positive integer, got ${batchSize}`);

  let checkpoint: Position | null = options.from ?? null;
  let stopped = false;
  let woken = false;
  let interrupt: ((byWake: boolean) => void) | null = null;

  const unregister = deps.onWake(() => {
    woken = true;
    interrupt?.(true);
  });

  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing error reporter must not stop delivery.
    }
  };

  /** Sleeps; `stop()` always ends the sleep, a wake-up only when `wakeable`. */
  const pause = (ms: number, wakeable: boolean) =>
    new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        interrupt = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      interrupt = (byWake) => {
        if (!byWake || wakeable) finish();
      };
    });

  const deliver = async (slice: AllSlice): Promise<boolean> => {
    while (!stopped) {
      try {
        await options.onBatch(slice);
        return true;
      } catch (error) {
        report(error);
        await pause(deps.retryDelayMs, false);
      }
    }
    return false;
  };

  const run = async () => {
    let caughtUpSignalled = false;
    /** The read after the slice being delivered, started before its delivery when the log goes on. */
    let ahead: Promise<AllSlice> | null = null;
    while (!stopped) {
      woken = false;
      let slice: AllSlice;
      try {
        slice = await (ahead ?? deps.read(checkpoint, batchSize, options.filter));
      } catch (error) {
        report(error);
        await pause(deps.retryDelayMs, false);
        continue;
      } finally {
        ahead = null;
      }
      const advanced =
        slice.checkpoint !== null && (checkpoint === null || deps.comparePositions(slice.checkpoint, checkpoint) > 0);
      if (slice.events.length > 0 || advanced) {
        // Behind (a rebuild, a restart): the next slice is read while this one is handled, so the
        // handler's statements and the next read overlap. A failed read is retried from the checkpoint.
        const next = slice.caughtUp || options.readAhead === false ? null : deps.read(slice.checkpoint, batchSize, options.filter);
        next?.catch(() => undefined);
        if (!(await deliver(slice))) break;
        checkpoint = slice.checkpoint;
        ahead = next;
      }
      if (!slice.caughtUp) continue;
      if (slice.events.length > 0 || advanced || !caughtUpSignalled) {
        caughtUpSignalled = true;
        try {
          options.onCaughtUp?.(checkpoint);
        } catch (error) {
          report(error);
        }
      }
      if (!woken && !stopped) await pause(deps.pollIntervalMs, true);
    }
  };

  const done = run().finally(() => {
    unregister();
    onStopped();
  });

  return {
    async stop() {
      stopped = true;
      interrupt?.(false);
      await done;
    },
  };
}
