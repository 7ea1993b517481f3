import { describe, expect, it } from 'vitest';
import { meetsPasswordCriteria, validatePasswordChange } from './password-rules';

describe('password criteria', () => {
  it.each([
    ['Abcdef1!', true],
    ['été-2026', true],
    ['Abc1!', false],
    ['Abcdefgh1', false],
    ['Abcdefgh!', false],
    ['12345678!', false],
  ])('%s → %s', (password, ok) => {
    expect(meetsPasswordCriteria(password)).toBe(ok);
  });
});

describe('validatePasswordChange', () => {
  it('checks the rules in the spec order', () => {
    expect(validatePasswordChange({ oldPassword: '', newPassword: 'x', confirmation: 'y' })?.message).toBe(
      'Tous les champs sont obligatoires.',
    );
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'x', confirmation: 'y' })?.message).toBe(
      'Le mot de passe ne respecte pas tous les critères.',
    );
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'Abcdef1!', confirmation: 'y' })?.message).toBe(
      'La confirmation ne correspond pas.',
    );
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'Abcdef1!', confirmation: 'Abcdef1!' })).toBeNull();
  });
});
