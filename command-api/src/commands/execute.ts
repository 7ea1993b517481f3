import type { z } from 'zod';
import { parseRecorded } from '@fsm/contracts';
import type { EventStore, Position, RecordedEvent } from '@fsm/eventstore';
import { ConcurrencyError, readStreamOrEmpty } from '@fsm/eventstore';
import type { Queryable } from '@fsm/projections';
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

/**
 * What every handler gets besides its input, built once per request
 * (`commandCaller`): where to append, where to read flags and scope from, who
 * acts, and the request's instant (the events' `...At`).
 */
export interface CommandCaller {
  context: CommandContext;
  db: Queryable;
  actor: Actor;
  now: Date;
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
 * What an edit was decided on: the version of the fiche the user saw (the
 * request's `version` / `If-Match`) or the read-model row the handler checked
 * and built the command from. The append must happen on that very version, not
 * on whatever the stream holds when it is read again here: re-deciding a
 * command on newer state than its author saw is how a second save silently
 * undoes the first one.
 */
export interface EditBasis {
  version: number;
  /**
   * The fiche's version in its stream, when a stream holds several fiches (the
   * trades catalogue): the revision of the last event that touched it, -1 when
   * none did. By default the stream's revision (one fiche per stream).
   */
  versionIn?: (history: readonly RecordedEvent[]) => number;
}

/**
 * parse → (authorize, done by the route) → load → fold → decide → append with
 * the expected revision → wait for the read models. A concurrent change makes
 * the append fail with ConcurrencyError (HTTP 409): never a lost update. With
 * a basis, a fiche that changed since that version is refused the same way
 * before anything is decided.
 */
export async function execute<Command, State, Event extends DomainEvent>(
  context: CommandContext,
  decider: Decider<Command, State, Event>,
  stream: string,
  command: Command,
  actor: Actor,
  toDomainEvent: (recorded: RecordedEvent) => Event,
  basis: EditBasis | readonly EditBasis[] = [],
): Promise<CommandResult<Event>> {
  const history = await readStreamOrEmpty(context.store, stream);
  const currentRevision = history.length === 0 ? -1 : history[history.length - 1]!.revision;
  checkBasis(stream, history, currentRevision, basis);
  const state = history.map(toDomainEvent).reduce(decider.evolve, decider.initialState);
  const events = decider.decide(command, state);
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

/**
 * The one handler shape: an aggregate's decider, how an id names its stream,
 * and the schema its recorded events are parsed with. Handlers (`handleX` in
 * commands/) read what the command needs, build it, and run it through this.
 */
export function commandHandler<Command, State, Event extends DomainEvent>(aggregate: {
  decider: Decider<Command, State, Event>;
  streamOf: (id: string) => string;
  events: z.ZodType<Event>;
}) {
  const toDomainEvent = (recorded: RecordedEvent): Event => parseRecorded(aggregate.events, recorded);
  return (
    caller: Pick<CommandCaller, 'context' | 'actor'>,
    id: string,
    command: Command,
    basis?: EditBasis | readonly EditBasis[],
  ): Promise<CommandResult<Event>> =>
    execute(caller.context, aggregate.decider, aggregate.streamOf(id), command, caller.actor, toDomainEvent, basis);
}

/**
 * The basis of an edit whose handler read the fiche's read-model row (scope,
 * checks, values it keeps): that row's version. A version sent by the client
 * must be the row's too, else the user saw another state than the one checked
 * here: older means somebody changed it since, newer that the read models have
 * not caught up yet; both answer 409 (reload, then save again).
 */
export function basisOf(row: { version: number }, requested: number | undefined, stream: string): EditBasis {
  if (requested !== undefined && requested !== row.version) throw new ConcurrencyError(stream, requested, row.version);
  return { version: row.version };
}

/** A fiche that is not in the stream at all is left to the decider (404), not called "changed". */
function checkBasis(stream: string, history: readonly RecordedEvent[], streamVersion: number, basis: EditBasis | readonly EditBasis[]): void {
  const bases: readonly EditBasis[] = 'version' in basis ? [basis] : basis;
  for (const { version, versionIn } of bases) {
    const current = versionIn ? versionIn(history) : streamVersion;
    if (current !== -1 && current !== version) throw new ConcurrencyError(stream, version, current);
  }
}
