/**
 * Helpers shared by the adapters' position formats. Both adapters write a
 * position as two unsigned integers, each zero-padded to 20 digits (enough for
 * any 64-bit value) and joined by '-', so plain string order is log order.
 */

/** Digits of each part of a position: enough for any 64-bit value. */
export const POSITION_WIDTH = 20;
const WIDTH = POSITION_WIDTH;
const POSITION_PATTERN = /^(\d{20})-(\d{20})$/;

export function formatPositionPair(major: bigint | string | number, minor: bigint | string | number): string {
  return `${padUnsigned(major)}-${padUnsigned(minor)}`;
}

/** Splits a position string into its two parts, as decimal strings without padding. */
export function parsePositionPair(position: string): { major: string; minor: string } {
  const match = POSITION_PATTERN.exec(position);
  if (!match) throw new TypeError(`malformed event-store position: ${JSON.stringify(position)}`);
  return { major: stripZeros(match[1] ?? ''), minor: stripZeros(match[2] ?? '') };
}

export function isPositionPair(position: string): boolean {
  return POSITION_PATTERN.test(position);
}

/**
 * Orders two positions. Fixed width makes string order numeric order; the
 * format is checked so a position from another store or a typo fails loudly
 * instead of comparing as if it were meaningful.
 */
export function comparePositionPairs(a: string, b: string): number {
  if (!isPositionPair(a)) throw new TypeError(`malformed event-store position: ${JSON.stringify(a)}`);
  if (!isPositionPair(b)) throw new TypeError(`malformed event-store position: ${JSON.stringify(b)}`);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function maxPosition(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return comparePositionPairs(a, b) >= 0 ? a : b;
}

function padUnsigned(value: bigint | string | number): string {
  const text = typeof value === 'string' ? value : value.toString(10);
  if (!/^\d+$/.test(text) || text.length > WIDTH) throw new TypeError(`position part out of range: ${text}`);
  return text.padStart(WIDTH, '0');
}

function stripZeros(text: string): string {
  const stripped = text.replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}
