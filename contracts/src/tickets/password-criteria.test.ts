import { describe, expect, it } from 'vitest';
import { checkPasswordCriteria, isPasswordAcceptable } from './password-criteria.js';

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
