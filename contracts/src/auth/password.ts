import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../tickets/ticket-constants.js';
import { PASSWORD_MESSAGES } from '../tickets/ticket-messages.js';

/**
 * The password rule of spec §5, one flag per criterion so the dialog can tick
 * them off as the user types and the server can refuse with the same rule.
 * "Letter" and "digit" are Unicode-aware: `é` is a letter, and a password made
 * only of letters and digits in any script has no special character.
 */
export interface PasswordCriteria {
  minLength: boolean;
  letter: boolean;
  digit: boolean;
  special: boolean;
  valid: boolean;
}

export function checkPasswordCriteria(password: string): PasswordCriteria {
  // Count code points, not UTF-16 units, so an emoji is one character.
  const minLength = [...password].length >= PASSWORD_MIN_LENGTH;
  const letter = /\p{L}/u.test(password);
  const digit = /\p{N}/u.test(password);
  const special = /[^\p{L}\p{N}]/u.test(password);
  return { minLength, letter, digit, special, valid: minLength && letter && digit && special };
}

export function isPasswordAcceptable(password: string): boolean {
  return checkPasswordCriteria(password).valid;
}

// ---------------------------------------------------------------------------
// POST /api/utilisateurs/change-password (spec §7) and its dialog
// ---------------------------------------------------------------------------

function requiredPassword() {
  return z
    .string({ error: PASSWORD_MESSAGES.allFieldsRequired })
    .min(1, { error: PASSWORD_MESSAGES.allFieldsRequired, abort: true })
    .max(PASSWORD_MAX_LENGTH, { error: PASSWORD_MESSAGES.criteriaNotMet });
}

const newPassword = requiredPassword().refine(isPasswordAcceptable, { error: PASSWORD_MESSAGES.criteriaNotMet });

export const changePasswordBodySchema = z.object({
  oldPassword: requiredPassword(),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The password dialog (spec §2, §5): the body plus the confirmation, which never leaves the browser. */
export const changePasswordFormSchema = z
  .object({ oldPassword: requiredPassword(), newPassword, confirmation: requiredPassword() })
  .refine((form) => form.confirmation === form.newPassword, {
    error: PASSWORD_MESSAGES.confirmationMismatch,
    path: ['confirmation'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;
