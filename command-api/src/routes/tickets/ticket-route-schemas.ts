import { z } from 'zod';
import { ClosedTicketsPageSchema, InterventionSchema, OpenTicketsPageSchema, TICKET_EVENT_TYPES, TicketSchema } from '@fsm/contracts';

/*
 * Answer schemas of the ticket routes. A ticket is contracts' `TicketSchema`;
 * serialising through it guarantees nothing else (signature references,
 * operator ids) ever leaves the server.
 */

export const TicketListAnswerSchema = z.object({ tickets: z.array(TicketSchema) });

/** GET /api/tickets: the spec's `{ tickets }`, or one page when `limit` is given (issue #19). */
export const OpenTicketsAnswerSchema = z.union([OpenTicketsPageSchema, TicketListAnswerSchema]);
/** GET /api/tickets/clos: the spec's `{ tickets }`, or one page when `limit` is given (issue #19). */
export const ClosedTicketsAnswerSchema = z.union([ClosedTicketsPageSchema, TicketListAnswerSchema]);

export const InterventionViewSchema = InterventionSchema.extend({
  /** 1 for the ticket's first re-intervention, then 2, ... */
  ordinal: z.number().int().positive(),
  technicien_id: z.string(),
});
export const InterventionListAnswerSchema = z.array(InterventionViewSchema);

export const SuccessAnswerSchema = z.object({ success: z.literal(true) });

/** `?at=<revision>`: a whole number from 0. */
export const TicketHistoryQuerySchema = z.object({
  at: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number({ error: 'Révision invalide.' }).int({ error: 'Révision invalide.' }).min(0, { error: 'Révision invalide.' }).optional(),
  ),
});

export const TicketHistoryAnswerSchema = z.object({
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
export const CaptchaChallengeAnswerSchema = z.object({
  parameters: z.record(z.string(), z.unknown()),
  signature: z.string().optional(),
});
