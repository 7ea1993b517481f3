import type { EventMetadata, NewEvent } from './port.js';

export type StoredMetadata = Omit<EventMetadata, 'recordedAt'>;

/**
 * The metadata an adapter writes for a new event: the caller's fields with the
 * defaults the read side relies on. `recordedAt` is dropped on purpose: the
 * store sets it, a caller cannot backdate an event.
 */
export function metadataToStore(event: NewEvent): StoredMetadata {
  const { recordedAt: _ignored, ...given } = (event.metadata ?? {}) as Record<string, unknown>;
  return {
    ...given,
    userId: typeof given.userId === 'string' ? given.userId : null,
    correlationId: typeof given.correlationId === 'string' ? given.correlationId : event.id,
    causationId: typeof given.causationId === 'string' ? given.causationId : null,
  };
}

/**
 * Metadata as read back: what was stored plus the store's own timestamp, or the
 * time the event was first recorded when the copy tool moved it from another
 * store (`originalRecordedAt`, see `copy/copy-events.ts`). `stored` is the
 * adapter's freshly decoded object and is completed in place: a replay reads
 * millions of events, and copying each one's metadata cost more than decoding it.
 */
export function metadataFromStore(stored: unknown, recordedAt: Date): EventMetadata {
  const given = (stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? stored : {}) as Record<string, unknown>;
  const original = typeof given.originalRecordedAt === 'string' ? new Date(given.originalRecordedAt) : null;
  if (original && !Number.isNaN(original.getTime())) recordedAt = original;
  if (typeof given.userId !== 'string') given.userId = null;
  if (typeof given.correlationId !== 'string') given.correlationId = '';
  if (typeof given.causationId !== 'string') given.causationId = null;
  given.recordedAt = recordedAt.toISOString();
  return given as unknown as EventMetadata;
}
