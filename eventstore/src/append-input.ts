import type { ExpectedRevision, NewEvent } from './port.js';

/**
 * Checks shared by both adapters before anything is sent, so a programming
 * mistake fails the same way on every backend.
 */
export function assertAppendInput(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): void {
  if (typeof stream !== 'string' || stream.length === 0) throw new TypeError('stream id must be a non-empty string');
  if (stream.startsWith('$')) throw new TypeError(`stream ids starting with '$' are reserved: ${stream}`);
  if (events.length === 0) throw new TypeError(`nothing to append to ${stream}`);
  if (typeof expected === 'number' && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw new TypeError(`expected revision must be a non-negative integer, got ${expected}`);
  }
  if (typeof expected === 'string' && !['any', 'no_stream', 'stream_exists'].includes(expected)) {
    throw new TypeError(`unknown expected revision: ${expected}`);
  }
  for (const event of events) {
    if (typeof event.type !== 'string' || event.type.length === 0) throw new TypeError('event type must be a non-empty string');
    if (event.type.startsWith('$')) throw new TypeError(`event types starting with '$' are reserved: ${event.type}`);
  }
}
