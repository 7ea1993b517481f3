import type { z } from 'zod';
import { parseRecorded } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';

/**
 * Each recorded event's parse, per schema: the runner hands the same event
 * objects to every projector of a batch (rm.tickets, rm.ticket_sla and
 * rm.ticket_interventions all read a ticket's visit), so a replay checks each
 * event against a schema once, not once per projector. Weak: an event's
 * entry goes with the batch.
 */
const parsed = new WeakMap<RecordedEvent, Map<z.ZodType, unknown>>();

/**
 * The typed `{ type, data }` of a recorded event, checked against its schema:
 * the one place where a future event version would be upcast. The result is
 * shared between projectors: read it, never change it.
 */
export function domainEvent<Schema extends z.ZodType<{ type: string; data: unknown }>>(schema: Schema, recorded: RecordedEvent): z.output<Schema> {
  let bySchema = parsed.get(recorded);
  const known = bySchema?.get(schema);
  if (known !== undefined) return known as z.output<Schema>;
  const event = parseRecorded(schema, recorded);
  if (!bySchema) parsed.set(recorded, (bySchema = new Map()));
  bySchema.set(schema, event);
  return event;
}
