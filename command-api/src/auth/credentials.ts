import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { USER_ROW_SELECT, type Queryable, type UserRow } from '@fsm/projections';
import { migrateUnderLock } from '../migrate-under-lock.js';

/**
 * Password hashes live here, never in events (invariant 7). Node's scrypt is
 * memory-hard and needs no native build. Format: `scrypt$N$r$p$salt$hash`
 * (base64url), so the cost can be raised later and old hashes still verify.
 */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing, verified when the e-mail is unknown so timing does not tell which accounts exist. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'));
  return decoy;
}

const AUTH_SCHEMA_SQL = `
  CREATE SCHEMA IF NOT EXISTS auth;
  CREATE TABLE IF NOT EXISTS auth.credentials (
    user_id uuid PRIMARY KEY,
    password_hash text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  );
  -- The e-mail an account holds, unique ignoring case: two creations racing with
  -- the same address cannot both pass (the users read model is checked too, but
  -- it lags behind the log).
  ALTER TABLE auth.credentials ADD COLUMN IF NOT EXISTS email text;
  CREATE UNIQUE INDEX IF NOT EXISTS credentials_email ON auth.credentials (lower(email));
  -- Bumped by every password change: tokens carry the version they were issued
  -- under, so a change revokes every older token (stolen or left on a shared PC).
  ALTER TABLE auth.credentials ADD COLUMN IF NOT EXISTS token_version int NOT NULL DEFAULT 0;
  -- Login failures per (e-mail, client address): see auth/login-throttle.ts.
  -- Tokens ended by Déconnexion before their expiry, by SHA-256 (never the token
  -- itself). Rows past expires_at are useless (the token is refused anyway) and
  -- are deleted as new ones come in, so the table holds at most one TTL of logouts.
  CREATE TABLE IF NOT EXISTS auth.revoked_tokens (
    token_hash bytea PRIMARY KEY,
    user_id uuid NOT NULL,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX IF NOT EXISTS revoked_tokens_expiry ON auth.revoked_tokens (expires_at);
  CREATE TABLE IF NOT EXISTS auth.login_failures (
    email text NOT NULL,
    source text NOT NULL DEFAULT '',
    failures int NOT NULL,
    last_failure_at timestamptz NOT NULL,
    locked_until timestamptz,
    PRIMARY KEY (email, source)
  );
  -- Tables made before issue 17 counted per e-mail only (which let anyone lock an
  -- account out): their rows are bookkeeping, kept under the empty source.
  ALTER TABLE auth.login_failures ADD COLUMN IF NOT EXISTS source text NOT NULL DEFAULT '';
  DO $$ BEGIN
    IF (SELECT array_length(conkey, 1) FROM pg_constraint WHERE conrelid = 'auth.login_failures'::regclass AND contype = 'p') = 1 THEN
      ALTER TABLE auth.login_failures DROP CONSTRAINT login_failures_pkey, ADD PRIMARY KEY (email, source);
    END IF;
  END $$;`;

export async function migrateAuth(db: Queryable): Promise<void> {
  await migrateUnderLock(db, 'fsm:auth-migrate', AUTH_SCHEMA_SQL);
}

/** Sets the password; a change (not the first one) revokes every token issued before. Returns the new token version. */
export async function setPassword(db: Queryable, userId: string, password: string): Promise<number> {
  const hash = await hashPassword(password);
  const { rows } = await db.query<{ token_version: number }>(
    `INSERT INTO auth.credentials (user_id, password_hash) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET password_hash = $2, updated_at = now(), token_version = auth.credentials.token_version + 1
     RETURNING token_version`,
    [userId, hash],
  );
  return rows[0]?.token_version ?? 0;
}

/**
 * The user (read model), the token version of its credentials and whether the
 * token was revoked, in one round trip: every authenticated request needs all
 * three. Null when the user is deleted or has no credentials.
 */
export async function findUserWithTokenVersion(
  db: Queryable,
  userId: string,
  tokenHash: Buffer | null,
): Promise<(UserRow & { token_version: number; revoked: boolean }) | null> {
  const { rows } = await db.query<UserRow & { token_version: number; revoked: boolean }>(
    `SELECT su.*, c.token_version, EXISTS (SELECT 1 FROM auth.revoked_tokens r WHERE r.token_hash = $2) AS revoked
     FROM (${USER_ROW_SELECT} WHERE u.id = $1 AND NOT u.deleted) su JOIN auth.credentials c ON c.user_id = su.id`,
    [userId, tokenHash],
  );
  return rows[0] ?? null;
}

/**
 * Ends one session (Déconnexion): the token is refused from now on, the
 * account's other sessions live on. Idempotent. Also drops the entries whose
 * token has expired on its own since.
 */
export async function revokeToken(db: Queryable, tokenHash: Buffer, userId: string, expiresAt: Date, now: Date): Promise<void> {
  await db.query(
    `WITH purged AS (DELETE FROM auth.revoked_tokens WHERE expires_at < $4)
     INSERT INTO auth.revoked_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (token_hash) DO NOTHING`,
    [tokenHash, userId, expiresAt, now],
  );
}

/** The version a token must carry to be valid; null when the account has no credentials (deleted). */
export async function tokenVersionOf(db: Queryable, userId: string): Promise<number | null> {
  const { rows } = await db.query<{ token_version: number }>('SELECT token_version FROM auth.credentials WHERE user_id = $1', [userId]);
  return rows[0]?.token_version ?? null;
}

export async function passwordHashOf(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM auth.credentials WHERE user_id = $1', [userId]);
  return rows[0]?.password_hash ?? null;
}

export async function deleteCredentials(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM auth.credentials WHERE user_id = $1', [userId]);
}

/**
 * Reserves `email` for the account (null releases it). False when another
 * account holds it: the unique index decides, so concurrent claims cannot both win.
 * Needs the account's credentials row (written first at creation).
 */
export async function claimEmail(db: Queryable, userId: string, email: string | null): Promise<boolean> {
  try {
    await db.query('UPDATE auth.credentials SET email = $2 WHERE user_id = $1', [userId, email === null ? null : email.trim().toLowerCase()]);
    return true;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '23505') return false;
    throw error;
  }
}

export async function claimedEmailOf(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ email: string | null }>('SELECT email FROM auth.credentials WHERE user_id = $1', [userId]);
  return rows[0]?.email ?? null;
}
