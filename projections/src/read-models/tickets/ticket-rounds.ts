import type { RecordedEvent } from '@fsm/eventstore';

/**
 * Splits a batch into rounds where each stream appears at most once, keeping
 * each stream's own order (its k-th event goes to round k). Rows of different
 * tickets never depend on each other, so a round can be written with one
 * set-based statement per event type, in any order, and the rounds one after
 * the other leave exactly the rows that applying the events one by one would.
 */
export function streamRounds(events: readonly RecordedEvent[]): RecordedEvent[][] {
  const rounds: RecordedEvent[][] = [];
  const next = new Map<string, number>();
  for (const event of events) {
    const round = next.get(event.streamId) ?? 0;
    (rounds[round] ??= []).push(event);
    next.set(event.streamId, round + 1);
  }
  return rounds;
}

/** Column arrays for `unnest($1::type[], $2::type[], …)`: one array per column, one entry per row. */
export function columns<Row>(rows: readonly Row[], pick: readonly ((row: Row) => unknown)[]): unknown[][] {
  return pick.map((get) => rows.map(get));
}
