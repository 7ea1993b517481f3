import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { PENDING_READ_FIELD, POSITION_HEADER, READ_MODELS_LATE_MESSAGE, type PendingRead } from '@fsm/contracts';
import type { Position } from '@fsm/eventstore';

/**
 * Read-your-writes, told honestly (issue 21, item 2). A command waits for the
 * read models to reach the position it appended, for READ_YOUR_WRITES_TIMEOUT_MS
 * at most. When they do not (projections stopped, or a writing transaction open
 * anywhere on the server holding every subscriber back), the route still builds
 * its usual answer, and this hook turns its 2xx into a 202: the position in
 * `X-Position`, and, when the answer is a JSON object, `pending: { position,
 * message }` beside the spec's fields. On time, the answer is untouched.
 *
 * Handlers reach the request's record through AsyncLocalStorage: the command
 * contexts are built once per route file, not per request.
 */

interface ReadYourWrites {
  /** The last position whose wait timed out, until a later wait covers it. */
  late: Position | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    readYourWrites: ReadYourWrites | null;
  }
}

const current = new AsyncLocalStorage<ReadYourWrites>();

/**
 * What a command's wait for the read models gave, for the request it runs in
 * (outside a request — seed, tests, scripts — it does nothing). A later wait
 * that succeeds at or past the late position means the read models caught up.
 */
export function noteProjectionWait(position: Position, projected: boolean, compare: (a: Position, b: Position) => number): void {
  const record = current.getStore();
  if (!record) return;
  if (!projected) record.late = position;
  else if (record.late !== null && compare(position, record.late) >= 0) record.late = null;
}

/**
 * `seal`: a position goes out sealed (live-positions.ts, issue 32 item 13): in
 * clear, two of a user's own writes would tell how many events every other
 * agency wrote in between.
 */
export function registerReadYourWrites(app: FastifyInstance, seal: (position: Position) => string): void {
  app.decorateRequest('readYourWrites', null);
  // preHandler, not onRequest: the body is parsed by then (its stream events would
  // leave the async context), and the handler runs inside `done`.
  app.addHook('preHandler', (request, _reply, done) => {
    const record: ReadYourWrites = { late: null };
    request.readYourWrites = record;
    current.run(record, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const late = request.readYourWrites?.late ?? null;
    // Reads keep their status whatever they recorded on the way (a download's audit event).
    if (late === null || request.method === 'GET' || reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const position = seal(late);
    void reply.code(202).header(POSITION_HEADER, position);
    return withPendingRead(payload, { position, message: READ_MODELS_LATE_MESSAGE }, String(reply.getHeader('content-type') ?? ''));
  });
}

/** The answer with `pending` added when it is a JSON object; anything else (arrays, empty, binary) as it was. */
function withPendingRead(payload: unknown, pending: PendingRead, contentType: string): unknown {
  if (typeof payload !== 'string' || !contentType.includes('json')) return payload;
  try {
    const body = JSON.parse(payload) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return payload;
    return JSON.stringify({ ...body, [PENDING_READ_FIELD]: pending });
  } catch {
    return payload;
  }
}
