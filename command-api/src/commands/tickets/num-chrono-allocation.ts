import { chronoAllocatedSchema, chronoStreamId, formatNumChrono, parseRecorded } from '@fsm/contracts';
import { ConcurrencyError, StreamNotFoundError, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import type { CommandCaller } from '../execute.js';

/**
 * Draws the next `num_chrono` of an (agency code, year) counter: reads the
 * last `ChronoAllocated` of `chrono-<CODE>-<YEAR>` and appends the next one
 * with that revision as the expected revision. Two openings racing for the
 * same number: one append wins, the other gets a ConcurrencyError and draws
 * again (a few attempts, with a small random pause so they spread out). The
 * counter is therefore race-free and rebuilt from the log like everything
 * else; a number drawn for an opening that then fails is skipped, never
 * handed out twice.
 */
const CHRONO_MAX_ATTEMPTS = 10;

export interface ChronoRequest {
  agencyCode: string;
  year: number;
  ticketId: string;
}

async function lastAllocation(store: EventStore, stream: string): Promise<RecordedEvent | null> {
  try {
    const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last ?? null;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return null;
    throw error;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The draws in progress in this process, per counter: openings of one process
 * draw one after the other, so only other processes race them. Fifty
 * openings at once in one process used to exhaust the attempts and answer 409
 * to a user who had conflicted with nobody (faults/contention).
 */
const drawing = new Map<string, Promise<unknown>>();

function oneDrawAtATime<T>(stream: string, draw: () => Promise<T>): Promise<T> {
  const run = (drawing.get(stream) ?? Promise.resolve()).then(draw, draw);
  const settled = run.catch(() => undefined);
  drawing.set(stream, settled);
  void settled.then(() => {
    if (drawing.get(stream) === settled) drawing.delete(stream);
  });
  return run;
}

export function allocateNumChrono(caller: Pick<CommandCaller, 'context' | 'actor'>, request: ChronoRequest): Promise<string> {
  const stream = chronoStreamId(request.agencyCode, request.year);
  return oneDrawAtATime(stream, () => draw(caller, stream, request));
}

async function draw({ context, actor }: Pick<CommandCaller, 'context' | 'actor'>, stream: string, request: ChronoRequest): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const last = await lastAllocation(context.store, stream);
    const seq = last === null ? 1 : parseRecorded(chronoAllocatedSchema, last).data.seq + 1;
    try {
      await context.store.appendToStream(
        stream,
        [
          {
            id: context.newId(),
            type: 'ChronoAllocated',
            data: { seq, ticketId: request.ticketId },
            metadata: { userId: actor.userId, userName: actor.userName, correlationId: actor.correlationId, causationId: null },
          },
        ],
        { expectedRevision: last === null ? 'no_stream' : last.revision },
      );
      return formatNumChrono({ agencyCode: request.agencyCode, year: request.year, sequence: seq });
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= CHRONO_MAX_ATTEMPTS) throw error;
      await pause(Math.floor(Math.random() * 10 * attempt));
    }
  }
}
