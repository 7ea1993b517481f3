import { metadataToStore } from '../metadata.js';
import type { ExpectedRevision, NewEvent } from '../port.js';

/**
 * The one statement an append sends. Exported so tests (and tools) can run the
 * very same append inside a transaction they control.
 */
export function appendStatement(
  schema: string,
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedRevision,
): { text: string; values: [string, string, string] } {
  const payload = events.map((event) => ({
    id: event.id,
    type: event.type,
    data: event.data === undefined ? null : event.data,
    metadata: metadataToStore(event),
  }));
  return {
    text: `SELECT out_status, out_version, out_transaction_id, out_global_position FROM "${schema}".append_to_stream($1, $2, $3::jsonb)`,
    values: [stream, String(expected), JSON.stringify(payload)],
  };
}

export interface AppendRow {
  out_status: 'ok' | 'conflict' | 'retry';
  out_version: string;
  out_transaction_id: string | null;
  out_global_position: string | null;
}
