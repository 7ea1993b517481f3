import { z } from 'zod';

/**
 * The `num_chrono` counters (docs/ticket-lifecycle.md, docs/tickets-api.md).
 * One stream per (agency code, French calendar year), `chrono-LYO-2026`; each
 * ticket number is one `ChronoAllocated` event appended with the stream's
 * expected revision, so two concurrent openings can never draw the same
 * sequence: the loser's append fails and it draws again.
 */

export const CHRONO_STREAM_CATEGORY = 'chrono';

/** `chrono-<CODE>-<YEAR>`; the category (before the first '-') is `chrono`. */
export function chronoStreamId(agencyCode: string, year: number): string {
  return `${CHRONO_STREAM_CATEGORY}-${agencyCode}-${year}`;
}

export const chronoAllocatedDataSchema = z.object({
  /** 1 for the first ticket of the code and year, then 2, 3, ... with no reuse. */
  seq: z.int().positive(),
  /** The ticket the number was drawn for. */
  ticketId: z.string().min(1),
});

export const chronoAllocatedSchema = z.object({ type: z.literal('ChronoAllocated'), data: chronoAllocatedDataSchema });
export const chronoEventSchema = chronoAllocatedSchema;

export type ChronoAllocated = z.infer<typeof chronoAllocatedSchema>;
export type ChronoAllocatedData = ChronoAllocated['data'];
export type ChronoEvent = ChronoAllocated;
