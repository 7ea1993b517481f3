import { z } from 'zod';
import { hasHiddenCharacters } from '../hidden-characters.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';

/*
 * Field builders shared by the management bodies. Not exported from the package:
 * the bodies built with them are. Every builder is idempotent (parsing its own
 * output gives the same output), because deciders parse again what handlers
 * already parsed.
 */

const TEXT_MAX = 255;
export const LONG_TEXT_MAX = 5000;

/** The check every stored text gets: bidi overrides and other invisible controls are refused (hidden-characters.ts). */
export const withoutHiddenCharacters = [(value: string) => !hasHiddenCharacters(value), M.hiddenCharacters] as const;

/** Trimmed, non-empty; missing, null and blank all give `message`. */
export function requiredText(message: string, max = TEXT_MAX) {
  return z.string({ error: message }).trim().min(1, message).max(max, M.tooLong(max)).refine(...withoutHiddenCharacters);
}

/** Trimmed; missing, null and blank are stored as null. */
export function optionalText(max = TEXT_MAX) {
  return z
    .string({ error: M.textExpected })
    .trim()
    .max(max, M.tooLong(max))
    .refine(...withoutHiddenCharacters)
    .nullish()
    .transform((value) => (value ? value : null));
}

/** Trimmed and lower-cased, so uniqueness checks and logins ignore case. */
export function requiredEmail(requiredMessage: string) {
  return z.string({ error: requiredMessage }).trim().toLowerCase().min(1, requiredMessage).max(TEXT_MAX, M.tooLong(TEXT_MAX)).pipe(z.email(M.emailInvalid));
}

export function optionalEmail() {
  return z
    .string({ error: M.textExpected })
    .trim()
    .toLowerCase()
    .nullish()
    .transform((value) => (value ? value : null))
    .pipe(z.email(M.emailInvalid).max(TEXT_MAX, M.tooLong(TEXT_MAX)).nullable());
}

export function requiredId(message: string) {
  return z.guid({ error: message });
}

/**
 * Forms send numbers as numbers or as the input's string; '' and null mean
 * "not given". Anything else that is not a finite number stays as is, so the
 * number schema behind it reports it with its own message.
 */
export function numberInput(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    const parsed = Number(trimmed.replace(',', '.'));
    return Number.isFinite(parsed) ? parsed : value;
  }
  return value;
}

/** 0 or 1 from a checkbox (boolean), a number or its string; missing means 0. */
export function zeroOrOne(message: string) {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === '') return 0;
      if (value === true || value === 'true' || value === '1') return 1;
      if (value === false || value === 'false' || value === '0') return 0;
      return value;
    },
    z.union([z.literal(0), z.literal(1)], { error: message }),
  );
}

/** An ISO date-time with an offset, as stored in events. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** Ids listed once, in the order first given. */
export function uniqueIds(message: string) {
  return z.array(z.guid({ error: message }), { error: message }).transform((ids) => [...new Set(ids)]);
}

/** `{ type, data }` with a literal type, the shape every management event has. */
export function defineEvent<Type extends string, Shape extends z.ZodRawShape>(type: Type, data: Shape) {
  return z.object({ type: z.literal(type), data: z.object(data) });
}
