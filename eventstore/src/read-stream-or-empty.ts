import { StreamNotFoundError } from './errors.js';
import type { EventStore, RecordedEvent } from './port.js';

/** A stream's events, none for a stream never written (a new aggregate, a job's first outcome). */
export async function readStreamOrEmpty(store: EventStore, stream: string): Promise<RecordedEvent[]> {
  try {
    return await store.readStream(stream);
  } catch (error) {
    if (error instanceof StreamNotFoundError) return [];
    throw error;
  }
}
