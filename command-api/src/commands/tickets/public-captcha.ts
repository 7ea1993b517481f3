import { createHmac, randomBytes } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { z } from 'zod';
import { TICKET_MESSAGES, UnavailableError } from '@fsm/contracts';
import type { Queryable } from '@fsm/projections';

/**
 * The public form's captcha: a self-hosted ALTCHA proof-of-work (works
 * offline, no third party). GET /api/public/captcha hands out a signed
 * challenge; the browser finds the counter whose SHA-256 key starts with the
 * signed prefix and sends `base64(JSON {challenge, solution})` as
 * `g-recaptcha-response`; the server checks it with `verifySolution` and
 * remembers the challenge's signature so one solution opens one ticket.
 *
 * - HMAC keys: derived from TOKEN_SECRET when it is set (required in
 *   production, so every API instance accepts the challenges of the others);
 *   otherwise random keys kept in memory, so challenges handed out before a
 *   restart are refused and the visitor simply solves a new one.
 * - Replay: used signatures go to `auth.captcha_used` (Postgres, shared by
 *   every instance, atomic insert-if-absent) until their challenge expires;
 *   expired rows are purged as new ones come in. Bookkeeping, not business
 *   truth: it is not rebuilt from the log.
 * - Expiry: ALTCHA checks `expiresAt` against the real clock (`Date.now()`),
 *   so challenges are dated with it too, not with the app's injectable clock.
 */

export const CAPTCHA_SETTINGS = {
  algorithm: 'SHA-256',
  /** Hash rounds per counter value. */
  cost: 1,
  /** The solver tries every counter from 0 up to the secret one: about 50 000 hashes, well under a second in a browser. */
  counterMin: 20_000,
  counterMax: 80_000,
  ttlMs: 10 * 60_000,
} as const;

export interface CaptchaService {
  /** A new signed challenge for the widget. */
  challenge(): Promise<Challenge>;
  /** True once per valid, unexpired solution; false for anything else. */
  verifyAndConsume(payload: string): Promise<boolean>;
}

const payloadSchema = z.object({
  challenge: z.object({
    // Loose: every parameter is covered by the signature, so none may be dropped before the check.
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      expiresAt: z.number(),
    }),
    signature: z.string().min(1).max(256),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string().max(1024) }),
});

function decodePayload(payload: string): unknown {
  try {
    return JSON.parse(Buffer.from(payload.trim(), 'base64').toString('utf8'));
  } catch {
    return null;
  }
}

const CAPTCHA_TABLE_SQL = `
  BEGIN;
  SELECT pg_advisory_xact_lock(hashtext('fsm:captcha-migrate'));
  CREATE SCHEMA IF NOT EXISTS auth;
  CREATE TABLE IF NOT EXISTS auth.captcha_used (signature text PRIMARY KEY, expires_at timestamptz NOT NULL);
  CREATE INDEX IF NOT EXISTS captcha_used_expiry ON auth.captcha_used (expires_at);
  COMMIT;`;

export function createCaptchaService(options: { db: Queryable; secret?: string | undefined }): CaptchaService {
  const derive = (label: string) =>
    options.secret ? createHmac('sha256', options.secret).update(`altcha:${label}`).digest('hex') : randomBytes(32).toString('hex');
  const hmacSignatureSecret = derive('challenge');
  const hmacKeySignatureSecret = derive('key');
  let tableReady: Promise<void> | null = null;
  const ensureTable = () => {
    tableReady ??= options.db.query(CAPTCHA_TABLE_SQL).then(
      () => undefined,
      (error: unknown) => {
        tableReady = null;
        throw error;
      },
    );
    return tableReady;
  };

  /** Atomic: true the first time a signature is seen (until its challenge expires). */
  async function firstUse(signature: string, expiresAtSeconds: number): Promise<boolean> {
    try {
      await ensureTable();
      const { rows } = await options.db.query(
        `WITH purge AS (DELETE FROM auth.captcha_used WHERE expires_at < now())
         INSERT INTO auth.captcha_used (signature, expires_at) VALUES ($1, to_timestamp($2))
         ON CONFLICT (signature) DO NOTHING RETURNING 1`,
        [signature, expiresAtSeconds],
      );
      return rows.length === 1;
    } catch {
      // The replay check cannot run: refuse rather than accept unchecked.
      throw new UnavailableError(TICKET_MESSAGES.captchaError);
    }
  }

  return {
    challenge() {
      return createChallenge({
        algorithm: CAPTCHA_SETTINGS.algorithm,
        cost: CAPTCHA_SETTINGS.cost,
        counter: randomInt(CAPTCHA_SETTINGS.counterMax, CAPTCHA_SETTINGS.counterMin),
        deriveKey,
        expiresAt: new Date(Date.now() + CAPTCHA_SETTINGS.ttlMs),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },
    async verifyAndConsume(payload) {
      const parsed = payloadSchema.safeParse(decodePayload(payload));
      if (!parsed.success) return false;
      const { challenge, solution } = parsed.data;
      let verified: boolean;
      try {
        const result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret });
        verified = result.verified;
      } catch {
        // Malformed parameters (a forged challenge) make the library throw.
        verified = false;
      }
      if (!verified) return false;
      return firstUse(challenge.signature, challenge.parameters.expiresAt);
    },
  };
}
