/*
 * The workers role as `workers/src/main.ts` composes it — reactor, render
 * thread, the three queue workers — in a process of its own, with BullMQ's
 * lock short enough (LOCK_MS) that a job of a killed process is taken over
 * within seconds rather than BullMQ's default 30 s:
 *   node --conditions=source --import tsx faults/support/workers-process.ts
 * with DATABASE_URL, REDIS_URL, DATA_DIR, SMTP_URL, LOCK_MS set.
 */
import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createPostgresEventStore, productPoolConfig } from '@fsm/eventstore';
import { startWorkers } from '@fsm/workers';

const env = parseEnv(process.env);
const logger = pino({ level: env.LOG_LEVEL, name: 'workers' });
const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 6));
pool.on('error', () => undefined);
const store = createPostgresEventStore({ pool, pollIntervalMs: 100 });
await store.migrate();
const lock = Number(process.env.LOCK_MS ?? 30_000);
const workers = await startWorkers({
  env,
  pool,
  store,
  logger,
  lockDurationMs: lock,
  stalledIntervalMs: Math.max(500, Math.floor(lock / 2)),
  backoffMs: 200,
});
process.once('SIGTERM', () => {
  void workers.close().then(async () => {
    await store.close();
    await pool.end();
    process.exit(0);
  });
});
process.stdout.write('workers ready\n');
