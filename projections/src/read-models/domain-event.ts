import type { z } from 'zod';
import type { RecordedEvent } from '@fsm/eventstore';

/**
 * The typed `{ type, data }` of a recorded event, checked against its schema:
 * the one place where a future event version would be upcast.
 */
export function domainEvent<Schema extends z.ZodType<{ type: string; data: unknown }>>(schema: Schema, recorded: RecordedEvent): z.output<Schema> {
  return schema.parse({ type: recorded.type, data: recorded.data });
}
