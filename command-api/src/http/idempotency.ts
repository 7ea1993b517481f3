import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ConflictError,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_MESSAGES,
  IDEMPOTENCY_TTL_HOURS,
  IDEMPOTENT_REPLAY_HEADER,
  POSITION_HEADER,
  ROUTES_WITHOUT_IDEMPOTENCY,
  ValidationError,
} from '@fsm/contracts';
import type { Queryable } from '@fsm/projections';
import { migrateUnderLock } from '../migrate-under-lock.js';

/*
 * Commands carry their own id (ARCHITECTURE "Where the design goes next"). A
 * client may send `Idempotency-Key: <uuid>` on any POST/PUT/PATCH/DELETE: the
 * first request with that key (per user) runs, and its 2xx answer is kept for
 * 24 h and replayed to any later request with the same key; while it runs, the
 * same key answers 409; the same key on another route or body answers 400.
 *
 * Kept in Postgres, not Redis: a command needs Postgres anyway, so the
 * guarantee holds exactly when a command can run at all (Redis may be down,
 * faults/redis-outage), across API instances and restarts. Not a read model
 * (nothing of it comes from the log): bookkeeping like auth's tables.
 */

const SCHEMA_SQL = `
  CREATE SCHEMA IF NOT EXISTS api;
  CREATE TABLE IF NOT EXISTS api.idempotent_requests (
    scope text NOT NULL,
    key uuid NOT NULL,
    fingerprint text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    status int,
    headers jsonb,
    body text,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS idempotent_requests_created_at ON api.idempotent_requests (created_at);`;

export async function migrateIdempotency(db: Queryable): Promise<void> {
  await migrateUnderLock(db, 'fsm:idempotency-migrate', SCHEMA_SQL);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Answers carrying a session token are never stored: the key is ignored there. */
export const SECRET_ANSWERS: ReadonlySet<string> = new Set(ROUTES_WITHOUT_IDEMPOTENCY);
/** The answer's headers a replay repeats (the rest is per response: dates, security headers). */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'content-disposition', POSITION_HEADER];
/**
 * A claim whose request never finished (the process died) is taken over after
 * this long: more than any command takes (READ_YOUR_WRITES_TIMEOUT_MS is 60 s at most).
 */
const ABANDONED_AFTER_SECONDS = 120;

interface Claim {
  scope: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
}

/**
 * One hook for every route: preHandler (after authentication and body
 * validation, so a refused request never takes the key) claims or replays,
 * onSend stores a 2xx answer or frees the key for anything else (a 4xx or 5xx
 * changed nothing: retrying it must run it again).
 * Register after `registerReadYourWrites`, so the stored answer is the final one (202 included).
 */
export function registerIdempotency(app: FastifyInstance, db: Queryable): void {
  app.decorateRequest('idempotencyClaim', null);
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined || !STATE_CHANGING.has(request.method) || SECRET_ANSWERS.has(request.routeOptions.url ?? '')) return;
    if (typeof header !== 'string' || !UUID.test(header)) throw new ValidationError(IDEMPOTENCY_MESSAGES.invalidKey);
    const claim: Claim = { scope: request.principal?.id ?? 'public', key: header.toLowerCase() };
    const fingerprint = fingerprintOf(request);
    // Twice at most: a row freed between our claim and our read is claimed again.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await tryClaim(db, claim, fingerprint)) {
        request.idempotencyClaim = claim;
        return;
      }
      const { rows } = await db.query<{ fingerprint: string; status: number | null; headers: Record<string, string> | null; body: string | null }>(
        'SELECT fingerprint, status, headers, body FROM api.idempotent_requests WHERE scope = $1 AND key = $2',
        [claim.scope, claim.key],
      );
      const row = rows[0];
      if (!row) continue;
      if (row.fingerprint !== fingerprint) throw new ValidationError(IDEMPOTENCY_MESSAGES.keyReused);
      if (row.status === null) throw new ConflictError(IDEMPOTENCY_MESSAGES.inProgress);
      return replay(reply, row.status, row.headers ?? {}, row.body);
    }
    throw new ConflictError(IDEMPOTENCY_MESSAGES.inProgress);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    try {
      if (reply.statusCode >= 200 && reply.statusCode < 300 && (typeof payload === 'string' || payload === null || payload === undefined)) {
        const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((name) => (reply.hasHeader(name) ? [[name, String(reply.getHeader(name))]] : [])));
        await db.query('UPDATE api.idempotent_requests SET status = $3, headers = $4, body = $5 WHERE scope = $1 AND key = $2', [
          claim.scope,
          claim.key,
          reply.statusCode,
          JSON.stringify(headers),
          payload ?? null,
        ]);
      } else {
        await db.query('DELETE FROM api.idempotent_requests WHERE scope = $1 AND key = $2', [claim.scope, claim.key]);
      }
    } catch (error) {
      // The command's answer stands; its key is taken over once abandoned (ABANDONED_AFTER_SECONDS).
      request.log.warn({ err: error }, 'idempotency record not written');
    }
    return payload;
  });
}

/** Takes the key: a new one, an expired one, or one abandoned by a request that never finished. */
async function tryClaim(db: Queryable, claim: Claim, fingerprint: string): Promise<boolean> {
  // Expired answers go on the way, like revoked tokens (this key's own row is left to the upsert).
  await db.query(`DELETE FROM api.idempotent_requests WHERE created_at < now() - make_interval(hours => $3) AND NOT (scope = $1 AND key = $2)`, [
    claim.scope,
    claim.key,
    IDEMPOTENCY_TTL_HOURS,
  ]);
  const { rows } = await db.query(
    `INSERT INTO api.idempotent_requests AS r (scope, key, fingerprint) VALUES ($1, $2, $3)
     ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = now(), status = NULL, headers = NULL, body = NULL
       WHERE r.created_at < now() - make_interval(hours => $4) OR (r.status IS NULL AND r.created_at < now() - make_interval(secs => $5))
     RETURNING 1`,
    [claim.scope, claim.key, fingerprint, IDEMPOTENCY_TTL_HOURS, ABANDONED_AFTER_SECONDS],
  );
  return rows.length > 0;
}

/**
 * What makes two requests "the same": method, path and query, and the body.
 * A multipart body (a ticket with its photo) is read by the handler as a
 * stream, after this hook: its length stands for it (a browser re-sending the
 * same form sends the same length, its boundary being of fixed size).
 */
function fingerprintOf(request: FastifyRequest): string {
  const body = request.isMultipart() ? `multipart:${request.headers['content-length'] ?? ''}` : JSON.stringify(request.body ?? null);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('base64url');
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string | null): FastifyReply {
  return reply
    .code(status)
    .headers({ ...headers, [IDEMPOTENT_REPLAY_HEADER]: 'true' })
    .send(body ?? undefined);
}
