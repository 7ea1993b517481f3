import type { Position as KurrentPosition } from '@kurrent/kurrentdb-client';
import type { Position } from '../port.js';
import { formatPositionPair, parsePositionPair } from '../positions.js';

/**
 * A KurrentDB $all position is {commit, prepare}; written as the two numbers
 * zero-padded to 20 digits, commit first, so string order is log order.
 */
export function formatKurrentPosition(position: KurrentPosition): Position {
  return formatPositionPair(BigInt(position.commit), BigInt(position.prepare));
}

export function parseKurrentPosition(position: Position): KurrentPosition {
  const { major, minor } = parsePositionPair(position);
  return { commit: BigInt(major), prepare: BigInt(minor) };
}

/** The server answers -1 (or nothing) where it has no position, e.g. for an idempotent write. */
export function isRealPosition(position: KurrentPosition | undefined): position is KurrentPosition {
  return position !== undefined && BigInt(position.commit) >= 0n && BigInt(position.prepare) >= 0n;
}
