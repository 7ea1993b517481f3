import {
  eventTypeFilter,
  excludeSystemEvents,
  streamNameFilter,
  type AllStreamRecordedEvent,
  type Filter,
  type Position as KurrentPosition,
  type AllStreamSubscription,
} from '@kurrent/kurrentdb-client';
import { categoryOf, type AllFilter } from '../port.js';

type CheckpointReached = (subscription: AllStreamSubscription, position: KurrentPosition) => void;

/** A regex that matches nothing, for an empty list (the server's regexes are .NET ones). */
const MATCH_NOTHING = '^(?!)';

/**
 * The server-side filter for a port filter. KurrentDB filters on one thing
 * only, so categories win and event types are then checked on the client
 * (`isIncluded`). Without a filter, system events are excluded on the server.
 * `checkpointInterval: 1` asks for a checkpoint at every search window, so a
 * subscriber whose filter matches nothing still moves forward.
 */
export function serverFilter(filter: AllFilter | undefined, checkpointReached?: CheckpointReached): Filter {
  const base = { checkpointInterval: 1, ...(checkpointReached ? { checkpointReached } : {}) };
  if (filter?.categories) {
    const regex = filter.categories.length === 0 ? MATCH_NOTHING : `^(?:${filter.categories.map(escapeRegex).join('|')})(?:-|$)`;
    return streamNameFilter({ ...base, regex });
  }
  if (filter?.eventTypes) {
    const regex = filter.eventTypes.length === 0 ? MATCH_NOTHING : `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$`;
    return eventTypeFilter({ ...base, regex });
  }
  return excludeSystemEvents(base);
}

/** The whole filter, system events excluded, checked on the client whatever the server did. */
export function isIncluded(event: AllStreamRecordedEvent, filter: AllFilter | undefined): boolean {
  if (event.type.startsWith('$') || event.streamId.startsWith('$')) return false;
  if (filter?.categories && !filter.categories.includes(categoryOf(event.streamId))) return false;
  if (filter?.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  return true;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, (character) => `\\${character}`);
}
