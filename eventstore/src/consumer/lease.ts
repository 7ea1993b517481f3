import type pg from 'pg';
import { LEADER_LEASE_MS } from '@fsm/contracts';

/*
 * A leader lease in Postgres (the read models' database, which both event
 * store deployments have). One row per consumer name: who holds it, a fencing
 * token that grows at every change of holder, until when, and the backend pid
 * of the holder's session. Every write the leader makes runs, in its own
 * transaction, `consumers.assert_leader(name, token)`: it locks the row and
 * fails unless the token is still the current one, the lease has not expired
 * and the caller IS the holder's session — so a leader that was paused, cut off
 * or replaced cannot write any more, whatever it believes.
 */

export const LEASE_SCHEMA = 'consumers';
/** SQLSTATE raised by `consumers.assert_leader` (a custom class, clashing with no Postgres code). */
export const LEASE_LOST_CODE = 'FL001';

export const DEFAULT_LEASE_MS = LEADER_LEASE_MS.default;
export const MIN_LEASE_MS = LEADER_LEASE_MS.min;
export const MAX_LEASE_MS = LEADER_LEASE_MS.max;

/** The one lease name (and the only key) of a consumer: `role` says which kind, `name` which instance. */
export function leaseName(role: 'projections' | 'reactor', name: string): string {
  return `${role}:${name}`;
}

/** The lease is no longer this process's: step down, write nothing more. */
export class LeaseLostError extends Error {
  readonly code = LEASE_LOST_CODE;
  constructor(lease: string, why: string) {
    super(`lease ${lease} lost: ${why}`);
    this.name = 'LeaseLostError';
  }
}

/** A write refused by the fence (raised in Postgres, or here). */
export function isLeaseLost(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === LEASE_LOST_CODE;
}

const DDL = `
CREATE SCHEMA IF NOT EXISTS ${LEASE_SCHEMA};
CREATE TABLE IF NOT EXISTS ${LEASE_SCHEMA}.leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  fencing_token bigint NOT NULL,
  expires_at timestamptz NOT NULL,
  backend_pid int NOT NULL,
  acquired_at timestamptz NOT NULL
);
CREATE OR REPLACE FUNCTION ${LEASE_SCHEMA}.assert_leader(p_name text, p_token bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The row lock (held to the end of the caller's transaction) makes a takeover wait for this write.
  PERFORM 1 FROM ${LEASE_SCHEMA}.leases
    WHERE name = p_name AND fencing_token = p_token AND backend_pid = pg_backend_pid() AND expires_at > clock_timestamp()
    FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'lease % lost (token %)', p_name, p_token USING ERRCODE = '${LEASE_LOST_CODE}';
  END IF;
END $$;
`;

/** Creates the lease table and the fence function. Safe to run concurrently. */
export async function migrateLeases(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('fsm:consumers-migrate'))`);
    const { rows } = await client.query<{ present: boolean }>(`SELECT to_regprocedure($1) IS NOT NULL AS present`, [`${LEASE_SCHEMA}.assert_leader(text,bigint)`]);
    if (!rows[0]?.present) await client.query(DDL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Takes the lease on `session` (which becomes the only session allowed to
 * write) when it is free, expired, or its holder's session is gone (a killed
 * process, a terminated backend: no need to wait for the expiry then). The
 * fencing token, or null while another holder has it.
 */
export async function acquireLease(session: pg.ClientBase, name: string, holder: string, leaseMs: number): Promise<string | null> {
  const { rows } = await session.query<{ fencing_token: string }>(
    `INSERT INTO ${LEASE_SCHEMA}.leases AS l (name, holder, fencing_token, expires_at, backend_pid, acquired_at)
     VALUES ($1, $2, 1, clock_timestamp() + $3 * interval '1 millisecond', pg_backend_pid(), clock_timestamp())
     ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, fencing_token = l.fencing_token + 1, expires_at = EXCLUDED.expires_at,
       backend_pid = EXCLUDED.backend_pid, acquired_at = EXCLUDED.acquired_at
     WHERE l.expires_at <= clock_timestamp() OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid)
     RETURNING fencing_token::text`,
    [name, holder, leaseMs],
  );
  return rows[0]?.fencing_token ?? null;
}

/** Extends the lease by `leaseMs` from now; false when it is no longer ours (expired, or taken over). */
export async function renewLease(db: pg.Pool | pg.ClientBase, name: string, token: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE ${LEASE_SCHEMA}.leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
     WHERE name = $1 AND fencing_token = $2 AND expires_at > clock_timestamp()`,
    [name, token, leaseMs],
  );
  return rowCount === 1;
}

/** Lets the next candidate take over at once (a clean stop). */
export async function releaseLease(db: pg.Pool | pg.ClientBase, name: string, token: string): Promise<void> {
  await db.query(`UPDATE ${LEASE_SCHEMA}.leases SET expires_at = clock_timestamp() WHERE name = $1 AND fencing_token = $2`, [name, token]);
}

/** The fence as one SQL statement with its literals inlined, to put in a multi-statement round trip before COMMIT. */
export function fenceStatement(session: pg.ClientBase, name: string, token: string): string {
  return `SELECT ${LEASE_SCHEMA}.assert_leader(${session.escapeLiteral(name)}, ${session.escapeLiteral(token)}::bigint)`;
}
