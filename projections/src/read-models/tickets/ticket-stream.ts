import { TICKET_STREAM_CATEGORY } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';

const PREFIX = `${TICKET_STREAM_CATEGORY}-`;

/**
 * The ticket a recorded event belongs to. Only `TicketOpened` names its
 * ticket in its data; every other ticket event is known by its stream
 * (`ticket-<uuid>`), so both read models take the id from there.
 */
export function ticketIdOf(recorded: RecordedEvent): string {
  if (!recorded.streamId.startsWith(PREFIX)) throw new Error(`not a ticket stream: ${recorded.streamId}`);
  return recorded.streamId.slice(PREFIX.length);
}
