import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginBodySchema } from './login.js';

/** The French message a route would answer with: the first issue's. */
function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('loginBodySchema', () => {
  it('accepts email and motdepasse, trimming the email only', () => {
    expect(loginBodySchema.parse({ email: ' admin@demo.fr ', motdepasse: ' Demo-2026! ' })).toEqual({ email: 'admin@demo.fr', motdepasse: ' Demo-2026! ' });
  });

  it('refuses a missing field in French', () => {
    expect(firstError(loginBodySchema, { email: 'admin@demo.fr' })).toBe('Merci de saisir votre email et votre mot de passe.');
  });
});
