import { PASSWORD_MIN_LENGTH } from './ticket-constants.js';

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
