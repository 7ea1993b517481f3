import { z } from 'zod';
import { SIGNATURE_MAX_DATA_URL_LENGTH, TICKET_TEXT_MAX } from './ticket-constants.js';
import { hasHiddenCharacters } from '../hidden-characters.js';
import { type TicketDateReading, readTicketDate, readTicketDateTime } from './ticket-dates.js';
import { TICKET_MESSAGES as M } from './ticket-messages.js';

/**
 * Building blocks of the ticket-side request schemas (tickets/ticket.ts,
 * auth/): French messages, blank form fields read as absent, stored texts
 * without hidden characters, typed dates through the ticket parsers. Internal
 * to contracts, as management/fields.ts is: reached through the schemas.
 * Multipart fields and query strings arrive as strings, so flags and numbers
 * are coerced here and an empty field counts as absent.
 */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

/** An empty form field, an empty query value or a JSON null means "not given". */
export function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

/** Ids are UUIDs (streams are `ticket-<uuid>`, `client-<uuid>`, ...). */
export const ticketEntityIdSchema = z.string({ error: M.invalidId }).trim().regex(GUID, { error: M.invalidId });

export function requiredId(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .regex(GUID, { error: M.invalidId });
}

export function optionalId() {
  return z.preprocess(blankToUndefined, ticketEntityIdSchema.optional());
}

/** Every text field that is stored: bidi overrides and other invisible controls are refused (hidden-characters.ts). */
export const withoutHiddenCharacters = [(value: string) => !hasHiddenCharacters(value), { error: M.hiddenCharacters }] as const;

/**
 * A text that is only looked up, never stored (login, QR key, captcha proof):
 * one with odd characters is simply not found, and keeps the answer the spec
 * gives for that (invalid link, invalid credentials).
 */
export function lookupText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: M.textTooLong });
}

export function requiredText(message: string, max: number) {
  return lookupText(message, max).refine(...withoutHiddenCharacters);
}

export function optionalText(max: number) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: M.textTooLong }).trim().max(max, { error: M.textTooLong }).refine(...withoutHiddenCharacters).optional(),
  );
}

export function requiredEmail(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(TICKET_TEXT_MAX.email, { error: M.invalidEmail })
    .pipe(z.email({ error: M.invalidEmail }));
}

/** `1`, `true`, `on` (a checked checkbox) and their opposites, as strings or booleans. */
export function optionalFlag() {
  return z.preprocess((value) => {
    const v = blankToUndefined(value);
    if (v === true || v === 1 || v === '1' || v === 'true' || v === 'on') return true;
    if (v === false || v === 0 || v === '0' || v === 'false' || v === 'off') return false;
    return v;
  }, z.boolean({ error: M.invalidTicketBody }).optional());
}

/** The French message of a date the ticket parsers refused. */
export function dateRefusal(reading: Extract<TicketDateReading, { ok: false }>, invalidMessage: string = M.invalidDate): string {
  return reading.reason === 'out_of_range' ? M.dateOutOfRange : invalidMessage;
}

/** A typed date through one of the ticket parsers: its normalised value, or the parser's refusal as the issue. */
export function ticketDate(read: (value: string) => TicketDateReading) {
  return z.string({ error: M.invalidDate }).transform((value, ctx) => {
    const reading = read(value.trim());
    if (reading.ok) return reading.value;
    ctx.addIssue({ code: 'custom', message: dateRefusal(reading) });
    return z.NEVER;
  });
}

/** A local French date-time or a zoned ISO string, normalised to a UTC ISO instant. */
export function optionalInstant() {
  return z.preprocess(blankToUndefined, ticketDate(readTicketDateTime).optional());
}

export function optionalDay() {
  return z.preprocess(blankToUndefined, ticketDate(readTicketDate).optional());
}

export function pngSignature(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .max(SIGNATURE_MAX_DATA_URL_LENGTH, { error: M.invalidSignature, abort: true })
    .regex(PNG_DATA_URL, { error: M.invalidSignature });
}
