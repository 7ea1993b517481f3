import { describe, expect, it } from 'vitest';
import { validatePasswordChange } from './password-change-check';

describe('validatePasswordChange', () => {
  it('checks the rules in the spec order', () => {
    expect(validatePasswordChange({ oldPassword: '', newPassword: 'x', confirmation: 'y' })).toEqual({ field: 'all', message: 'Tous les champs sont obligatoires.' });
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'Abcdef1!', confirmation: '' })).toEqual({ field: 'all', message: 'Tous les champs sont obligatoires.' });
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'x', confirmation: 'y' })).toEqual({
      field: 'newPassword',
      message: 'Le mot de passe ne respecte pas tous les critères.',
    });
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'Abcdef1!', confirmation: 'y' })).toEqual({
      field: 'confirmation',
      message: 'La confirmation ne correspond pas.',
    });
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: 'Abcdef1!', confirmation: 'Abcdef1!' })).toBeNull();
  });

  // The criteria themselves are contracts' rule (contracts/src/auth/password.test.ts); these are the spec's examples.
  it.each([
    ['Abcdef1!', true],
    ['été-2026', true],
    ['Abc1!', false],
    ['Abcdefgh1', false],
    ['Abcdefgh!', false],
    ['12345678!', false],
  ])('%s meets the criteria: %s', (password, ok) => {
    expect(validatePasswordChange({ oldPassword: 'a', newPassword: password, confirmation: password })).toEqual(
      ok ? null : { field: 'newPassword', message: 'Le mot de passe ne respecte pas tous les critères.' },
    );
  });
});
