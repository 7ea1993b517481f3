import type { FastifyRequest } from 'fastify';
import type { Actor } from '../commands/execute.js';
import { displayName, principalOf } from '../auth/principal.js';

/** The command's author, for the events' metadata (audit history). */
export function actorOf(request: FastifyRequest): Actor {
  const principal = request.principal ? principalOf(request) : null;
  return {
    userId: principal?.id ?? null,
    userName: principal ? displayName(principal) : null,
    correlationId: request.id,
  };
}
