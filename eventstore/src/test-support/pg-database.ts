import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh Postgres database for one test file, so test files run in parallel
 * against the real server without seeing each other's rows. Dropped by `drop()`.
 */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const safe = label.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 30);
  const name = `t_${safe}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
