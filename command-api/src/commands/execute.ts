import type { EventStore, Position, RecordedEvent } from '@fsm/eventstore';
import { StreamNotFoundError } from '@fsm/eventstore';
import type { Decider, DomainEvent } from '../domain/decider.js';

/** Who sends a command: becomes the events' metadata, for audit. */
export interface Actor {
  userId: string | null;
  userName: string | null;
  correlationId: string;
}

export interface CommandContext {
  store: EventStore;
  newId: () => string;
  /** Resolves once the read models include `position` (false on timeout). */
  waitForProjection: (position: Position) => Promise<boolean>;
}

export interface CommandResult<Event extends DomainEvent> {
  events: Event[];
  /** Revision of the stream after the append (-1 when nothing was appended). */
  revision: number;
  /** Log position of the last event written, null when the command changed nothing. */
  position: Position | null;
  /** Whether the read models already show the change when we answer. */
  projected: boolean;
}

/**
 * parse → (authorize, done by the route) → load → fold → decide → append with
 * the expected revision → wait for the read models. A concurrent change makes
 * the append fail with ConcurrencyError (HTTP 409): never a lost update.
 */
export async function execute<Command, State, Event extends DomainEvent>(
  context: CommandContext,
  decider: Decider<Command, State, Event>,
  stream: string,
  command: Command,
  actor: Actor,
  toDomainEvent: (recorded: RecordedEvent) => Event,
): Promise<CommandResult<Event>> {
  const history = await readStreamOrEmpty(context.store, stream);
  const state = history.map(toDomainEvent).reduce(decider.evolve, decider.initialState);
  const events = decider.decide(command, state);
  const currentRevision = history.length === 0 ? -1 : history[history.length - 1]!.revision;
  if (events.length === 0) return { events, revision: currentRevision, position: null, projected: true };
  const result = await context.store.appendToStream(
    stream,
    events.map((event) => ({
      id: context.newId(),
      type: event.type,
      data: event.data,
      metadata: { userId: actor.userId, userName: actor.userName, correlationId: actor.correlationId, causationId: null },
    })),
    { expectedRevision: currentRevision === -1 ? 'no_stream' : currentRevision },
  );
  const projected = await context.waitForProjection(result.position);
  return { events, revision: result.nextExpectedRevision, position: result.position, projected };
}

export async function readStreamOrEmpty(store: EventStore, stream: string): Promise<RecordedEvent[]> {
  try {
    return await store.readStream(stream);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}
