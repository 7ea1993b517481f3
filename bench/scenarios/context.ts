import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { productPoolConfig } from '@fsm/eventstore';
import { BENCH_SCHEMA, benchDataDir, type SeedReport } from '../seed.js';
import { databaseUrl } from '../lib/args.js';
import { StackProcess } from '../lib/stack-process.js';

export interface BenchDatabase {
  database: string;
  url: string;
  pool: pg.Pool;
  seed: SeedReport;
}

export async function openBenchDatabase(database: string): Promise<BenchDatabase> {
  const url = databaseUrl(database);
  const pool = new pg.Pool(productPoolConfig(url, 20));
  pool.on('error', () => undefined);
  try {
    const { rows } = await pool.query<{ report: SeedReport }>(`SELECT report FROM ${BENCH_SCHEMA}.seed_report WHERE id = 1`);
    const seed = rows[0]?.report;
    if (!seed) throw new Error('pas de rapport de génération');
    return { database, url, pool, seed };
  } catch (error) {
    await pool.end();
    throw new Error(`base ${database} : lancez d'abord npm run bench:seed -- --database ${database} (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The built web client (`npm run build`), served by the stack when present (browser and lighthouse scenarios); BENCH_WEB_ROOT measures another build. */
export const WEB_ROOT = process.env.BENCH_WEB_ROOT ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
export const webBuilt = () => existsSync(`${WEB_ROOT}/index.html`);

/** The stack against one bench database, with its own Redis db and queue prefix. */
export function startStack(db: BenchDatabase): Promise<StackProcess> {
  return StackProcess.start({
    ...(webBuilt() ? { WEB_ROOT } : {}),
    DATABASE_URL: db.url,
    DATA_DIR: benchDataDir(db.database),
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/5',
    BENCH_QUEUE_PREFIX: `fsmbench-${db.database}`,
    TOKEN_SECRET: 'bench-token-secret-0123456789-abcdefghij',
    NODE_ENV: 'production',
    // Long: a command whose read models are later than this answers 202, which the scenarios count as a failure.
    READ_YOUR_WRITES_TIMEOUT_MS: '30000',
  });
}

export const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
