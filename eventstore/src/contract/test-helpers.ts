import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach } from 'vitest';
import type { EventStore, NewEvent, Position, RecordedEvent, SubscribeOptions, SubscriptionBatch } from '../port.js';

/**
 * Waits until `check` returns something truthy, polling. Tests wait for
 * conditions this way and never assert on elapsed time.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 10, message = 'condition' }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A category nobody else writes to, so tests sharing a database (or a KurrentDB server) stay apart. */
export function uniqueCategory(prefix: string): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

export function streamIn(category: string): string {
  return `${category}-${randomUUID()}`;
}

export function newEvent(type: string, data: unknown = {}, metadata?: NewEvent['metadata']): NewEvent {
  return { id: randomUUID(), type, data, ...(metadata ? { metadata } : {}) };
}

interface Collector {
  readonly events: RecordedEvent[];
  readonly batches: SubscriptionBatch[];
  readonly errors: unknown[];
  /** Checkpoint of the last batch the handler accepted. */
  readonly checkpoint: Position | null;
  readonly caughtUpCount: number;
  stop(): Promise<void>;
}

/** Subscribes and records everything delivered; `onBatch` may be wrapped to inject behaviour. */
function collect(
  store: EventStore,
  options: Omit<SubscribeOptions, 'onBatch'> & { onBatch?: (batch: SubscriptionBatch) => Promise<void> },
): Collector {
  const events: RecordedEvent[] = [];
  const batches: SubscriptionBatch[] = [];
  const errors: unknown[] = [];
  let checkpoint: Position | null = options.from;
  let caughtUpCount = 0;
  const subscription = store.subscribeToAll({
    ...options,
    async onBatch(batch) {
      await options.onBatch?.(batch);
      batches.push(batch);
      events.push(...batch.events);
      checkpoint = batch.checkpoint;
    },
    onCaughtUp(position) {
      caughtUpCount++;
      options.onCaughtUp?.(position);
    },
    onError(error) {
      errors.push(error);
      options.onError?.(error);
    },
  });
  return {
    events,
    batches,
    errors,
    get checkpoint() {
      return checkpoint;
    },
    get caughtUpCount() {
      return caughtUpCount;
    },
    stop: () => subscription.stop(),
  };
}

export function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/** What a test opens that the file's afterEach stops (collectors) and closes (stores). */
export interface ClosedAfterEach {
  /** `store`, closed after the test. */
  keep<S extends EventStore>(store: S): S;
  /** collect() on `store`, stopped after the test (before the stores close). */
  follow(store: EventStore, options: Parameters<typeof collect>[1]): Collector;
}

/** Registers, in the current describe, the afterEach that stops what a test followed and closes what it kept. */
export function closedAfterEach(): ClosedAfterEach {
  let stores: EventStore[] = [];
  let collectors: Collector[] = [];
  afterEach(async () => {
    await Promise.all(collectors.map((collector) => collector.stop()));
    await Promise.all(stores.map((store) => store.close()));
    collectors = [];
    stores = [];
  });
  return {
    keep(store) {
      stores.push(store);
      return store;
    },
    follow(store, options) {
      const collector = collect(store, options);
      collectors.push(collector);
      return collector;
    },
  };
}
