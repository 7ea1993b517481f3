import { createHash } from 'node:crypto';

/**
 * A name-based UUID (version 5 layout, SHA-1) for outcome events: a job that
 * runs twice appends an event with the same id, which the store treats as the
 * same append (idempotent), so an outcome is recorded once.
 */
export function outcomeEventId(...parts: readonly string[]): string {
  const hash = createHash('sha1').update(`fsm-workers\u0000${parts.join('\u0000')}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
