/*
 * The workers' queue processors in a process of their own, so a test can kill
 * it (SIGKILL) in the middle of a job:
 *   node --conditions=source --import tsx workers/test/support/worker-process.ts
 * with DATABASE_URL, REDIS_URL, DATA_DIR, SMTP_URL, QUEUE_PREFIX, LOCK_MS set.
 */
import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createPostgresEventStore } from '@fsm/eventstore';
import { startWorkers } from '../../src/start-workers.js';

const env = parseEnv(process.env);
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 4 });
pool.on('error', () => undefined);
const store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
const lock = Number(process.env.LOCK_MS ?? 30_000);
await startWorkers({
  env,
  pool,
  store,
  logger: pino({ level: 'silent' }),
  queuePrefix: process.env.QUEUE_PREFIX ?? 'fsm',
  reactor: false,
  lockDurationMs: lock,
  stalledIntervalMs: lock,
  backoffMs: 200,
});
process.stdout.write('ready\n');
