import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { changePasswordBodySchema, changePasswordFormSchema, checkPasswordCriteria, isPasswordAcceptable } from './password.js';

describe('checkPasswordCriteria', () => {
  it('accepts 8 characters with a letter, a digit and a special character', () => {
    expect(checkPasswordCriteria('Demo-2026!')).toEqual({ minLength: true, letter: true, digit: true, special: true, valid: true });
    expect(isPasswordAcceptable('abcdef1!')).toBe(true);
  });

  it('refuses 7 characters even when every other criterion holds', () => {
    expect(checkPasswordCriteria('abcde1!')).toMatchObject({ minLength: false, valid: false });
  });

  it.each([
    ['no letter', '12345678!', 'letter'],
    ['no digit', 'abcdefgh!', 'digit'],
    ['no special character', 'abcdefgh1', 'special'],
  ] as const)('refuses a password with %s', (_label, password, failing) => {
    const result = checkPasswordCriteria(password);
    expect(result[failing]).toBe(false);
    expect(result.valid).toBe(false);
  });

  it('counts accented letters as letters, not as special characters', () => {
    expect(checkPasswordCriteria('éééééé12')).toMatchObject({ letter: true, special: false, valid: false });
  });

  it('counts a space as a non-alphanumeric character', () => {
    expect(isPasswordAcceptable('mot passe 1')).toBe(true);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkPasswordCriteria('a1😀😀😀😀😀😀').minLength).toBe(true);
    expect(checkPasswordCriteria('a1😀😀😀').minLength).toBe(false);
  });
});

/** The French message a route would answer with: the first issue's. */
function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('changePasswordBodySchema', () => {
  it('accepts a new password meeting every criterion', () => {
    expect(changePasswordBodySchema.safeParse({ oldPassword: 'x', newPassword: 'Nouveau-2026' }).success).toBe(true);
  });

  it("says 'Tous les champs sont obligatoires.' for an empty field", () => {
    expect(firstError(changePasswordBodySchema, { oldPassword: '', newPassword: 'Nouveau-2026' })).toBe('Tous les champs sont obligatoires.');
    expect(firstError(changePasswordBodySchema, { oldPassword: 'x', newPassword: '' })).toBe('Tous les champs sont obligatoires.');
  });

  it('refuses a weak new password with the criteria message', () => {
    expect(firstError(changePasswordBodySchema, { oldPassword: 'x', newPassword: 'motdepasse' })).toBe('Le mot de passe ne respecte pas tous les critères.');
  });
});

describe('changePasswordFormSchema', () => {
  it('refuses a confirmation that does not match, on the confirmation field', () => {
    const result = changePasswordFormSchema.safeParse({ oldPassword: 'x', newPassword: 'Nouveau-2026', confirmation: 'Nouveau-2027' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ message: 'La confirmation ne correspond pas.', path: ['confirmation'] });
  });
});
