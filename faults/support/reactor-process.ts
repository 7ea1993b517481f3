/*
 * The workers role's reactor alone (workers/src/start-workers.ts composes the
 * same Reactor with the same reactions and queues), in a process of its own,
 * with no queue worker: the jobs it enqueues stay in Redis to be counted.
 * Each enqueue is first recorded in `faults_enqueues` with this process's pid,
 * so a test can tell which process asked for which job and when:
 *   node --conditions=source --import tsx faults/support/reactor-process.ts
 * with DATABASE_URL, REDIS_URL, LEADER_LEASE_MS, QUEUE_PREFIX set.
 */
import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createPostgresEventStore, productPoolConfig } from '@fsm/eventstore';
import { createQueues, Reactor, reactions, type JobRequest } from '@fsm/workers';

const env = parseEnv(process.env);
const logger = pino({ level: env.LOG_LEVEL, name: 'reactor' });
const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 4));
pool.on('error', () => undefined);
const store = createPostgresEventStore({ pool, pollIntervalMs: 100 });
await store.migrate();
const queues = createQueues(env.REDIS_URL, process.env.QUEUE_PREFIX ?? 'fsm');
const reactor = new Reactor({
  pool,
  store,
  reactions,
  leaseMs: env.LEADER_LEASE_MS,
  logger,
  enqueue: async (jobs: readonly JobRequest[]) => {
    await pool.query('INSERT INTO faults_enqueues (os_pid, job_id) SELECT $1, unnest($2::text[])', [process.pid, jobs.map((job) => job.jobId)]);
    await queues.enqueue(jobs);
  },
});
await reactor.migrate();
await reactor.start();
// The reactor's timers are unref'd: hold the process until SIGTERM.
const keepAlive = setInterval(() => undefined, 60_000);
process.once('SIGTERM', () => {
  clearInterval(keepAlive);
  void reactor.stop().then(async () => {
    await queues.close();
    await store.close();
    await pool.end();
    process.exit(0);
  });
});
process.stdout.write('reactor ready\n');
