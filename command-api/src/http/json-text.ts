import type { FastifyReply } from 'fastify';

/**
 * Sends `value` stringified here. Fastify sends a string with a JSON content
 * type as it is, so the route's zod response schema (kept for the API
 * reference) is not run over answers of thousands of rows that Postgres
 * already shaped; command-api's sql-built-answers test holds the text equal
 * to what the schema would have written.
 */
export function sendJsonText(reply: FastifyReply, value: unknown): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
}
