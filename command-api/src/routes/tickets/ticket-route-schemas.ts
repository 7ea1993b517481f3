import { z } from 'zod';
import { closedTicketsPageSchema, interventionSchema, openTicketsPageSchema, TICKET_EVENT_TYPES, ticketSchema } from '@fsm/contracts';

/*
 * Answer schemas of the ticket routes. A ticket is contracts' `ticketSchema`;
 * serialising through it guarantees nothing else (signature references,
 * operator ids) ever leaves the server.
 */

export const ticketListAnswerSchema = z.object({ tickets: z.array(ticketSchema) });

/** GET /api/tickets: the spec's `{ tickets }`, or one page when `limit` is given (issue #19). */
export const openTicketsAnswerSchema = z.union([openTicketsPageSchema, ticketListAnswerSchema]);
/** GET /api/tickets/clos: the spec's `{ tickets }`, or one page when `limit` is given (issue #19). */
export const closedTicketsAnswerSchema = z.union([closedTicketsPageSchema, ticketListAnswerSchema]);

export const interventionViewSchema = interventionSchema.extend({
  /** 1 for the ticket's first re-intervention, then 2, ... */
  ordinal: z.number().int().positive(),
  technicien_id: z.string(),
});
export const interventionListAnswerSchema = z.array(interventionViewSchema);

export const successAnswerSchema = z.object({ success: z.literal(true) });

/** `?at=<revision>`: a whole number from 0. */
export const ticketHistoryQuerySchema = z.object({
  at: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number({ error: 'Révision invalide.' }).int({ error: 'Révision invalide.' }).min(0, { error: 'Révision invalide.' }).optional(),
  ),
});

export const ticketHistoryAnswerSchema = z.object({
  ticket_id: z.string(),
  num_chrono: z.string(),
  events: z.array(
    z.object({
      revision: z.number().int(),
      type: z.enum(TICKET_EVENT_TYPES),
      recorded_at: z.string(),
      user_id: z.string().nullable(),
      user_name: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  snapshot: z
    .object({
      revision: z.number().int(),
      recorded_at: z.string(),
      /** The decider's state (`command-api/src/domain/ticket/ticket.ts`). */
      state: z.record(z.string(), z.unknown()),
    })
    .optional(),
});

/** GET /api/public/captcha: an ALTCHA v2 challenge, parameters untouched (they are signed). */
export const captchaChallengeAnswerSchema = z.object({
  parameters: z.record(z.string(), z.unknown()),
  signature: z.string().optional(),
});
