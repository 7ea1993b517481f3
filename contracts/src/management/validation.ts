import type { z } from 'zod';
import { ValidationError } from '../errors.js';

/**
 * Parses with a management schema and turns the first issue into a
 * ValidationError carrying the schema's French message. Deciders call it on the
 * fields of their commands so the spec's rules hold even for a command that did
 * not come through HTTP; every issue is kept in `details` for the API.
 */
export function parseManagementBody<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const [first] = result.error.issues;
  throw new ValidationError(first?.message ?? 'Données invalides.', {
    issues: result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  });
}
