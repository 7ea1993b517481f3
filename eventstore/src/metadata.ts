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
 * store (`originalRecordedAt`, see `copy/copy-events.ts`).
 */
export function metadataFromStore(stored: unknown, recordedAt: Date): EventMetadata {
  const given = stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const original = typeof given.originalRecordedAt === 'string' ? new Date(given.originalRecordedAt) : null;
  if (original && !Number.isNaN(original.getTime())) recordedAt = original;
  return {
    ...given,
    userId: typeof given.userId === 'string' ? given.userId : null,
    correlationId: typeof given.correlationId === 'string' ? given.correlationId : '',
    causationId: typeof given.causationId === 'string' ? given.causationId : null,
    recordedAt: recordedAt.toISOString(),
  };
}
