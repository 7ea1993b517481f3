import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { migrateAuth } from '../../src/auth/credentials.js';
import { lockedFor, recordFailure } from '../../src/auth/login-throttle.js';

/*
 * Issue 17 moved login failures from one row per e-mail to one row per
 * (e-mail, client address). A deployment made before keeps its table: the
 * start-up migration must reshape it in place, twice in a row without harm.
 */

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase('api_login_failures_migration');
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

it('reshapes a per-e-mail table into per (e-mail, address), keeping its rows, and counts per address afterwards', async () => {
  await pool.query(`
    CREATE SCHEMA auth;
    CREATE TABLE auth.login_failures (email text PRIMARY KEY, failures int NOT NULL, last_failure_at timestamptz NOT NULL, locked_until timestamptz);
    INSERT INTO auth.login_failures VALUES ('victime@exemple.fr', 7, now(), now() + interval '10 minutes');`);
  await migrateAuth(pool);
  await migrateAuth(pool);
  const { rows: key } = await pool.query<{ column: string }>(
    `SELECT a.attname AS column FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
     WHERE c.conrelid = 'auth.login_failures'::regclass AND c.contype = 'p' ORDER BY a.attname`,
  );
  expect(key.map((row) => row.column)).toEqual(['email', 'source']);
  expect((await pool.query('SELECT email, source, failures FROM auth.login_failures')).rows).toEqual([{ email: 'victime@exemple.fr', source: '', failures: 7 }]);
  // The old per-e-mail lock no longer keeps anyone out; counts now go per address.
  const now = new Date();
  expect(await lockedFor(pool, 'victime@exemple.fr', '203.0.113.9', now)).toBe(0);
  for (let i = 0; i < 5; i++) await recordFailure(pool, 'victime@exemple.fr', '203.0.113.9', now);
  expect(await lockedFor(pool, 'victime@exemple.fr', '203.0.113.9', now)).toBeGreaterThan(0);
  expect(await lockedFor(pool, 'victime@exemple.fr', '203.0.113.10', now)).toBe(0);
});
