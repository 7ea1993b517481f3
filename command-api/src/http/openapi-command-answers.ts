import type { SwaggerTransformObject } from '@fastify/swagger';
import { IDEMPOTENCY_KEY_HEADER, POSITION_HEADER } from '@fsm/contracts';
import { SECRET_ANSWERS, STATE_CHANGING } from './idempotency.js';

type Operation = { parameters?: unknown[]; responses?: Record<string, unknown> };

/**
 * The two answers every state-changing route may give beside its own, added by
 * one hook each rather than by each route's schema: the opt-in Idempotency-Key
 * header (http/idempotency.ts) and the 202 of a command whose read models are
 * late (http/read-your-writes.ts). Added here to the generated OpenAPI document.
 */
export function withCommandAnswers(transform: SwaggerTransformObject): SwaggerTransformObject {
  return (input) => {
    const document = transform(input) as { paths?: Record<string, Record<string, Operation>> };
    for (const [path, operations] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!STATE_CHANGING.has(method.toUpperCase()) || SECRET_ANSWERS.has(path)) continue;
        operation.parameters = [
          ...(operation.parameters ?? []),
          {
            in: 'header',
            name: IDEMPOTENCY_KEY_HEADER,
            required: false,
            schema: { type: 'string', format: 'uuid' },
            description:
              'Optional. A UUID chosen per submission and sent again when retrying it: the first answer (2xx) is kept 24 h per user and replayed (header `idempotent-replayed: true`); 409 while the first request runs; 400 if the key was used for another request.',
          },
        ];
        operation.responses = {
          ...(operation.responses ?? {}),
          202: {
            description: `Recorded, but the read models had not reached it when answering (projections late): the route's own answer, plus \`pending: { position, message }\` when it is an object; the position is also in \`${POSITION_HEADER}\`. The next live update for the changed stream says when reads show it.`,
          },
        };
      }
    }
    return document as ReturnType<SwaggerTransformObject>;
  };
}
