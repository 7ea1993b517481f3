import type { z } from 'zod';

/**
 * The typed `{ type, data }` of a recorded event, checked against its schema:
 * the one parser of stored events (command handlers, projections, workers, the
 * seed), hence the one place a future event version would be upcast. Here
 * rather than in the event store: the schemas live in contracts, and the store
 * stays schema-agnostic (any adapter's recorded event fits this shape).
 */
export function parseRecorded<Schema extends z.ZodType<{ type: string; data: unknown }>>(
  schema: Schema,
  recorded: { type: string; data: unknown },
): z.output<Schema> {
  return schema.parse({ type: recorded.type, data: recorded.data });
}
