import { ErrorType } from '@kurrent/kurrentdb-client';
import type { RecordedEvent } from '../port.js';

/**
 * Where an append's event ids already sit in the stream it targets: nowhere
 * (write it), exactly as that append would have written them (a retry: give
 * back the first result), or elsewhere / partly (a conflict, as on Postgres).
 */
export type StoredAppend = { kind: 'none' } | { kind: 'mismatch' } | { kind: 'stored'; last: RecordedEvent };

export function findStoredAppend(stored: readonly RecordedEvent[], ids: readonly string[]): StoredAppend {
  const byId = new Map(stored.map((event) => [event.id, event]));
  const found = ids.map((id) => byId.get(id));
  if (found.every((event) => event === undefined)) return { kind: 'none' };
  const first = found[0];
  if (!first || found.some((event, index) => event === undefined || event.revision !== first.revision + index)) return { kind: 'mismatch' };
  return { kind: 'stored', last: found[found.length - 1] as RecordedEvent };
}

/** Longest pause between two resubscriptions, however many failed in a row. */
export const MAX_RESUBSCRIBE_DELAY_MS = 30_000;

/**
 * The pause before resubscribing after `failures` failures in a row: the
 * configured delay, doubled each time up to MAX_RESUBSCRIBE_DELAY_MS, so a
 * server that is down is not hammered every second for hours.
 */
export function resubscribeDelayMs(failures: number, baseMs: number): number {
  if (failures <= 1) return baseMs;
  return Math.min(MAX_RESUBSCRIBE_DELAY_MS, baseMs * 2 ** Math.min(failures - 1, 20));
}

/** Raised by the adapter itself for what no resubscription can cure. */
export class PermanentSubscriptionError extends Error {
  override readonly name = 'PermanentSubscriptionError';
}

/**
 * Errors a resubscription cannot cure: the account may not read $all, the
 * server does not support the call, or the request itself is invalid. Those
 * stop the subscription (reported through `onError`) instead of retrying for
 * ever; a lost connection, a timeout, a leader change or a cancelled stream
 * are retried.
 */
export function isPermanentSubscriptionError(error: unknown): boolean {
  if (error instanceof PermanentSubscriptionError) return true;
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  return type === ErrorType.ACCESS_DENIED || type === ErrorType.INVALID_ARGUMENT || type === ErrorType.UNSUPPORTED;
}
