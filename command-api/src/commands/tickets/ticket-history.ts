import { NotFoundError, ticketEventSchema, parseRecorded, ticketStreamId, type TicketEvent } from '@fsm/contracts';
import { readStreamOrEmpty, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import { evolve, initialState, type TicketState } from '../../domain/ticket/index.js';

/**
 * The audit history of a ticket (GET /api/tickets/{id}/history): its events in
 * stream order with who, when and what, and, for `?at=<revision>`, the
 * ticket's state right after that event, computed by folding the stream with
 * the decider's own `evolve` (the state the decider would have judged a
 * command on at that moment).
 */

const REVISION_NOT_FOUND = 'Cette version du ticket n’existe pas.';

/** File-store references (photo, signatures) are capabilities: an audit line says what happened, not where the files are. */
const HIDDEN_KEYS = new Set(['photo', 'signatureClient', 'signatureTechnicien']);

interface TicketHistoryEntry {
  revision: number;
  type: TicketEvent['type'];
  recorded_at: string;
  user_id: string | null;
  user_name: string | null;
  /** The event's data, references to stored files left out. */
  data: Record<string, unknown>;
}

export interface TicketHistory {
  ticket_id: string;
  events: TicketHistoryEntry[];
  /** With `?at=`: the state after that revision. */
  snapshot?: { revision: number; recorded_at: string; state: TicketState };
}

function withoutFileRefs(data: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !HIDDEN_KEYS.has(key)));
}

function historyEntry(recorded: RecordedEvent, event: TicketEvent): TicketHistoryEntry {
  return {
    revision: recorded.revision,
    type: event.type,
    recorded_at: recorded.metadata.recordedAt,
    user_id: recorded.metadata.userId ?? null,
    user_name: recorded.metadata.userName ?? null,
    data: withoutFileRefs(event.data),
  };
}

/** Pure: the entries and, with `at`, the folded state after that revision. */
function ticketHistoryOf(ticketId: string, recorded: readonly RecordedEvent[], at: number | undefined): TicketHistory {
  const events = recorded.map((entry) => ({ recorded: entry, event: parseRecorded(ticketEventSchema, entry) }));
  const history: TicketHistory = { ticket_id: ticketId, events: events.map(({ recorded: r, event }) => historyEntry(r, event)) };
  if (at === undefined) return history;
  const upTo = events.filter(({ recorded: r }) => r.revision <= at);
  const last = upTo[upTo.length - 1];
  if (last === undefined || last.recorded.revision !== at) throw new NotFoundError(REVISION_NOT_FOUND);
  const state = upTo.reduce<TicketState>((current, { event }) => evolve(current, event), initialState);
  return { ...history, snapshot: { revision: at, recorded_at: last.recorded.metadata.recordedAt, state } };
}

export async function loadTicketHistory(store: EventStore, ticketId: string, at: number | undefined): Promise<TicketHistory> {
  return ticketHistoryOf(ticketId, await readStreamOrEmpty(store, ticketStreamId(ticketId)), at);
}
