import { describe, expect, it } from 'vitest';
import { checkForm, remainingErrors } from './form-errors';

interface Values {
  nom: string;
  email: string;
}

/** The shape of a contracts schema's safeParse, for two fields. */
const schema = {
  safeParse(input: unknown) {
    const v = input as Values;
    const issues = [
      ...(v.nom ? [] : [{ path: ['nom'], message: 'Le nom est obligatoire.' }]),
      ...(v.email.includes('@') ? [] : [{ path: ['email'], message: 'Email invalide.' }]),
    ];
    return issues.length === 0 ? { success: true as const, data: v } : { success: false as const, error: { issues } };
  },
};

describe('remainingErrors', () => {
  it('keeps only the shown errors the values still have, with their current message', () => {
    const shown = checkForm(schema, { nom: '', email: 'x' });
    const errors = shown.ok ? {} : shown.errors;
    expect(errors).toEqual({ nom: 'Le nom est obligatoire.', email: 'Email invalide.' });
    expect(remainingErrors(errors, checkForm(schema, { nom: 'Morel', email: 'x' }))).toEqual({ email: 'Email invalide.' });
    expect(remainingErrors(errors, checkForm(schema, { nom: 'Morel', email: 'anne@example.fr' }))).toEqual({});
  });

  it('shows nothing new before the next submit', () => {
    expect(remainingErrors({ nom: 'Le nom est obligatoire.' }, checkForm(schema, { nom: 'Morel', email: 'x' }))).toEqual({});
  });
});
