import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  AnswerTooLargeError,
  ConflictError,
  DomainError,
  ForbiddenError,
  IllegalStateError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from '@fsm/contracts';

const GENERIC_SERVER_ERROR = 'Erreur serveur';
const INVALID_INPUT = 'Données invalides.';
export const DATABASE_UNAVAILABLE = 'Service momentanément indisponible. Merci de réessayer dans quelques instants.';

function statusOf(error: DomainError): number {
  if (error instanceof ValidationError) return 400;
  if (error instanceof UnauthorizedError) return 401;
  if (error instanceof ForbiddenError) return 403;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError || error instanceof IllegalStateError) return 409;
  if (error instanceof AnswerTooLargeError) return 422;
  if (error instanceof TooManyRequestsError) return 429;
  if (error instanceof UnavailableError) return 503;
  return 400;
}

/** Postgres / network failures that mean "try again later", not "bug". */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'].includes(code) ||
    code.startsWith('08') || // connection exceptions
    code === '57P01' || // admin shutdown
    code === '57P03' // cannot connect now (starting up)
  );
}

/**
 * The one place errors become HTTP answers: `{ error }` in French. 5xx never
 * leak internals; they are logged with the request id instead.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError | Error, request, reply) => {
    if (error instanceof DomainError) {
      return reply.status(statusOf(error)).send({ error: error.message, code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first?.message && !/^(Invalid|Expected|Required)/.test(first.message) ? first.message : INVALID_INPUT;
      return reply.status(400).send({
        error: message,
        code: 'VALIDATION',
        fields: error.validation.map((issue) => ({ path: issue.instancePath, message: issue.message })),
      });
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ error: 'Corps de requête JSON invalide.', code: 'VALIDATION' });
    }
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ error: 'Type de contenu non pris en charge.', code: 'VALIDATION' });
    }
    if (fastifyError.code === 'FST_REQ_FILE_TOO_LARGE' || fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error: 'Fichier trop volumineux (8 Mo maximum).', code: 'VALIDATION' });
    }
    // Text Postgres cannot store (U+0000 that slipped past the guard, bytes invalid in UTF-8): the input's fault.
    if (fastifyError.code === '22P05' || fastifyError.code === '22021') {
      return reply.status(400).send({ error: INVALID_INPUT, code: 'VALIDATION' });
    }
    if (isUnavailable(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      return reply.status(503).send({ error: DATABASE_UNAVAILABLE, code: 'UNAVAILABLE' });
    }
    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return reply.status(status).send({ error: status === 429 ? 'Trop de requêtes. Merci de patienter un instant.' : INVALID_INPUT, code: 'CLIENT_ERROR' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: GENERIC_SERVER_ERROR, code: 'INTERNAL' });
  });
}
