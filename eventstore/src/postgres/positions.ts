import { formatPositionPair, parsePositionPair } from '../positions.js';
import type { Position } from '../port.js';

/**
 * A Postgres position is (transaction id, global position): the order in which
 * subscribers read. Both parts are zero-padded to 20 digits so that string
 * order is that order.
 */
export function formatPostgresPosition(transactionId: string, globalPosition: string): Position {
  return formatPositionPair(transactionId, globalPosition);
}

export function parsePostgresPosition(position: Position): { transactionId: string; globalPosition: string } {
  const { major, minor } = parsePositionPair(position);
  return { transactionId: major, globalPosition: minor };
}
