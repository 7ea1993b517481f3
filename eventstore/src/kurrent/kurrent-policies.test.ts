import { randomUUID } from 'node:crypto';
import { ErrorType } from '@kurrent/kurrentdb-client';
import { describe, expect, test } from 'vitest';
import type { RecordedEvent } from '../port.js';
import {
  MAX_RESUBSCRIBE_DELAY_MS,
  PermanentSubscriptionError,
  findStoredAppend,
  isPermanentSubscriptionError,
  resubscribeDelayMs,
} from './kurrent-policies.js';

/*
 * The KurrentDB adapter's decisions that do not need a server (no KurrentDB
 * runs here; the contract suite runs the adapter itself with EVENTSTORE_URL).
 */

const recorded = (revision: number, id = randomUUID()): RecordedEvent => ({
  id,
  type: 'Recorded',
  data: {},
  metadata: { userId: null, correlationId: 'c', causationId: null, recordedAt: '2026-01-01T00:00:00.000Z' },
  streamId: 'report-1',
  revision,
  position: String(revision).padStart(20, '0'),
});

describe("'any' appends on KurrentDB: what the stream already holds decides", () => {
  const stream = [recorded(0), recorded(1), recorded(2), recorded(3)];
  const ids = stream.map((event) => event.id);

  test('ids not in the stream are written', () => {
    expect(findStoredAppend(stream, [randomUUID()])).toEqual({ kind: 'none' });
    expect(findStoredAppend([], [randomUUID(), randomUUID()])).toEqual({ kind: 'none' });
  });

  test('ids stored contiguously in the same order, anywhere in the stream, are a retry answered with the last of them', () => {
    expect(findStoredAppend(stream, [ids[0]!])).toEqual({ kind: 'stored', last: stream[0] });
    expect(findStoredAppend(stream, [ids[1]!, ids[2]!])).toEqual({ kind: 'stored', last: stream[2] });
  });

  test('ids partly stored, out of order or with a gap are a conflict', () => {
    expect(findStoredAppend(stream, [ids[3]!, randomUUID()])).toEqual({ kind: 'mismatch' });
    expect(findStoredAppend(stream, [randomUUID(), ids[0]!])).toEqual({ kind: 'mismatch' });
    expect(findStoredAppend(stream, [ids[2]!, ids[1]!])).toEqual({ kind: 'mismatch' });
    expect(findStoredAppend(stream, [ids[0]!, ids[2]!])).toEqual({ kind: 'mismatch' });
  });
});

describe('resubscribing to $all', () => {
  test('waits the configured delay first, then twice as long after each failure in a row, up to a cap', () => {
    expect([1, 2, 3, 4, 5].map((failures) => resubscribeDelayMs(failures, 1_000))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(resubscribeDelayMs(6, 1_000)).toBe(MAX_RESUBSCRIBE_DELAY_MS);
    expect(resubscribeDelayMs(10_000, 1_000)).toBe(MAX_RESUBSCRIBE_DELAY_MS);
  });

  test('stops on what no retry can cure and retries what passes', () => {
    for (const type of [ErrorType.ACCESS_DENIED, ErrorType.INVALID_ARGUMENT, ErrorType.UNSUPPORTED]) {
      expect(isPermanentSubscriptionError(Object.assign(new Error(type), { type })), type).toBe(true);
    }
    expect(isPermanentSubscriptionError(new PermanentSubscriptionError('no position'))).toBe(true);
    for (const type of [ErrorType.UNAVAILABLE, ErrorType.DEADLINE_EXCEEDED, ErrorType.NOT_LEADER, ErrorType.CANCELLED, ErrorType.UNKNOWN]) {
      expect(isPermanentSubscriptionError(Object.assign(new Error(type), { type })), type).toBe(false);
    }
    expect(isPermanentSubscriptionError(new Error('KurrentDB ended the $all subscription'))).toBe(false);
  });
});
