import type { EventStore, Position, RecordedEvent } from '@fsm/eventstore';
import type { Projector } from '../projector.js';

/** proj.checkpoints as a batch reads it: where every running projector is, and the ones behind. */
export interface StoredCheckpoint {
  position: Position | null;
  /** Only the projectors behind `position` (stopped, or catching up after a restart): a sparse map. */
  behind: Readonly<Record<string, Position | null>>;
}

/** A projector's own checkpoint: `position`, unless it is listed behind it. */
export function checkpointOf(stored: StoredCheckpoint, projector: string): Position | null {
  return Object.hasOwn(stored.behind, projector) ? (stored.behind[projector] ?? null) : stored.position;
}

/** Positions in log order, as the event store orders them; null (before the first event) first. */
export class LogOrder {
  private readonly store: EventStore;

  constructor(store: EventStore) {
    this.store = store;
  }

  compare(a: Position | null, b: Position | null): number {
    if (a === null) return b === null ? 0 : -1;
    if (b === null) return 1;
    return this.store.comparePositions(a, b);
  }

  lowest(positions: readonly (Position | null)[]): Position | null {
    return positions.reduce<Position | null | undefined>((low, position) => (low === undefined || this.compare(position, low) < 0 ? position : low), undefined) ?? null;
  }

  later(a: Position | null, b: Position | null): Position | null {
    return this.compare(a, b) >= 0 ? a : b;
  }

  /** Whether `projector` has yet to apply `event`. */
  isPending(stored: StoredCheckpoint, projector: Projector, event: RecordedEvent): boolean {
    return this.compare(event.position, checkpointOf(stored, projector.name)) > 0;
  }
}
