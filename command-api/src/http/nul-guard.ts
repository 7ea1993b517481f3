import type { FastifyInstance } from 'fastify';
import { ValidationError } from '@fsm/contracts';

export const NUL_REFUSED = 'Caractère non autorisé dans la requête.';

/** True when a string anywhere in the value holds U+0000 (depth-bounded: bodies are small trees). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value as Record<string, unknown>).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
}

/**
 * Postgres text and jsonb cannot hold U+0000: a NUL in a body field would get
 * through validation and fail at the append as a 500. No field of ours has a
 * use for it, so any request carrying one is refused up front (400), before
 * anything is read or written.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) throw new ValidationError(NUL_REFUSED);
  });
}
