import type { Queryable } from '@fsm/projections';

/**
 * Slows down password guessing per (e-mail, client address): the first few
 * failures cost nothing, then each further failure locks that address out of
 * that account for twice as long as the previous one (1 min, 2, 4 … up to
 * 15 min). A success from the address clears its count.
 *
 * Counting per e-mail alone let anyone lock any known account out (five wrong
 * passwords from rotating addresses, and the owner got 429 with the right
 * one). Only the failing addresses are slowed now; the owner, from an address
 * that has not failed, signs in. Once an account has collected
 * ACCOUNT_ALERT_FAILURES failures from all addresses together (a distributed
 * attack), each new address gets a single try before its own lock starts.
 *
 * Kept in Postgres so every API instance sees the same counts, and so it holds
 * when Redis (the per-address request limit) is away.
 */
export const FREE_ATTEMPTS = 5;
/** Failures on one account, all addresses together, within the window, that put it under watch. */
export const ACCOUNT_ALERT_FAILURES = 2 * FREE_ATTEMPTS;
const FREE_ATTEMPTS_UNDER_WATCH = 1;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 15 * 60_000;
/** Failures older than this are forgotten. */
const WINDOW_MS = 60 * 60_000;

function lockDuration(failures: number, freeAttempts = FREE_ATTEMPTS): number {
  if (failures < freeAttempts) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** (failures - freeAttempts), MAX_LOCK_MS);
}

function key(email: string): string {
  return email.trim().toLowerCase();
}

/** Milliseconds the address is still locked out of the account at `now` (0 when free). */
export async function lockedFor(db: Queryable, email: string, source: string, now: Date): Promise<number> {
  const { rows } = await db.query<{ locked_until: Date | null }>('SELECT locked_until FROM auth.login_failures WHERE email = $1 AND source = $2', [
    key(email),
    source,
  ]);
  const until = rows[0]?.locked_until;
  return until ? Math.max(0, until.getTime() - now.getTime()) : 0;
}

export async function recordFailure(db: Queryable, email: string, source: string, now: Date): Promise<void> {
  // Forgotten failures go, so guessing with ever new e-mails cannot grow the table for ever.
  await db.query(
    `DELETE FROM auth.login_failures
     WHERE last_failure_at < $1::timestamptz - make_interval(secs => $2) AND (locked_until IS NULL OR locked_until < $1::timestamptz)`,
    [now, WINDOW_MS / 1000],
  );
  const { rows } = await db.query<{ failures: number; account_failures: string }>(
    `WITH pair AS (
       INSERT INTO auth.login_failures (email, source, failures, last_failure_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (email, source) DO UPDATE SET
         failures = CASE WHEN auth.login_failures.last_failure_at < $3::timestamptz - make_interval(secs => $4) THEN 1 ELSE auth.login_failures.failures + 1 END,
         last_failure_at = $3
       RETURNING failures)
     SELECT pair.failures,
            pair.failures + (SELECT coalesce(sum(failures), 0) FROM auth.login_failures
                             WHERE email = $1 AND source <> $2 AND last_failure_at >= $3::timestamptz - make_interval(secs => $4)) AS account_failures
     FROM pair`,
    [key(email), source, now, WINDOW_MS / 1000],
  );
  const failures = rows[0]?.failures ?? 1;
  const underWatch = Number(rows[0]?.account_failures ?? failures) >= ACCOUNT_ALERT_FAILURES;
  const lock = lockDuration(failures, underWatch ? FREE_ATTEMPTS_UNDER_WATCH : FREE_ATTEMPTS);
  if (lock > 0) {
    await db.query('UPDATE auth.login_failures SET locked_until = $3 WHERE email = $1 AND source = $2', [key(email), source, new Date(now.getTime() + lock)]);
  }
}

/** After a success from `source`: that address starts afresh (the others stay slowed). */
export async function clearFailures(db: Queryable, email: string, source: string): Promise<void> {
  await db.query('DELETE FROM auth.login_failures WHERE email = $1 AND source = $2', [key(email), source]);
}
