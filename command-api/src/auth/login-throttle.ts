import type { Queryable } from '@fsm/projections';

/**
 * Slows down password guessing per e-mail: the first few failures cost
 * nothing, then each further failure locks the e-mail for twice as long as the
 * previous one (1 min, 2, 4 … up to 15 min). A success clears the count.
 * Kept in Postgres so every API instance sees the same counts.
 */
export const FREE_ATTEMPTS = 5;
const FIRST_LOCK_MS = 60_000;
const MAX_LOCK_MS = 15 * 60_000;
/** Failures older than this are forgotten. */
const WINDOW_MS = 60 * 60_000;

export function lockDuration(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** (failures - FREE_ATTEMPTS), MAX_LOCK_MS);
}

function key(email: string): string {
  return email.trim().toLowerCase();
}

/** Milliseconds the e-mail is still locked for at `now` (0 when free). */
export async function lockedFor(db: Queryable, email: string, now: Date): Promise<number> {
  const { rows } = await db.query<{ locked_until: Date | null }>('SELECT locked_until FROM auth.login_failures WHERE email = $1', [key(email)]);
  const until = rows[0]?.locked_until;
  return until ? Math.max(0, until.getTime() - now.getTime()) : 0;
}

export async function recordFailure(db: Queryable, email: string, now: Date): Promise<void> {
  // Forgotten failures go, so guessing with ever new e-mails cannot grow the table for ever.
  await db.query(
    `DELETE FROM auth.login_failures
     WHERE last_failure_at < $1::timestamptz - make_interval(secs => $2) AND (locked_until IS NULL OR locked_until < $1::timestamptz)`,
    [now, WINDOW_MS / 1000],
  );
  const { rows } = await db.query<{ failures: number }>(
    `INSERT INTO auth.login_failures (email, failures, last_failure_at) VALUES ($1, 1, $2)
     ON CONFLICT (email) DO UPDATE SET
       failures = CASE WHEN auth.login_failures.last_failure_at < $2::timestamptz - make_interval(secs => $3) THEN 1 ELSE auth.login_failures.failures + 1 END,
       last_failure_at = $2
     RETURNING failures`,
    [key(email), now, WINDOW_MS / 1000],
  );
  const failures = rows[0]?.failures ?? 1;
  const lock = lockDuration(failures);
  if (lock > 0) {
    await db.query('UPDATE auth.login_failures SET locked_until = $2 WHERE email = $1', [key(email), new Date(now.getTime() + lock)]);
  }
}

export async function clearFailures(db: Queryable, email: string): Promise<void> {
  await db.query('DELETE FROM auth.login_failures WHERE email = $1', [key(email)]);
}
