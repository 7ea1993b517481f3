import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseName, type PostgresEventStore, type RecordedEvent } from '@fsm/eventstore';
import { createQueues, QUEUE_NAMES, reactions, type Queues } from '@fsm/workers';
import { recordFigures } from './support/figures.js';
import { logHead } from './support/log-head.js';
import { startLogDatabase, type LogDatabase } from './support/log-database.js';
import type { PrivateDatabase } from './support/private-postgres.js';
import { startPrivateRedis, type PrivateRedis } from './support/private-redis.js';
import { killAllStarted, startProcess, type RoleProcess } from './support/processes.js';
import { appendLog, buildRealisticLog } from './support/realistic-log.js';
import { snapshotDifferences, snapshotReadModels } from './support/rm-snapshot.js';
import { until } from './support/wait.js';

/*
 * Issue 20, item 3 — one leased, leader-elected consumer. Two projections
 * processes (projections/src/main.ts) and two reactor processes (the workers
 * role's reactor: faults/support/reactor-process.ts) run against a private
 * Postgres and Redis, each pair electing its leader through a lease of
 * LEADER_LEASE_MS. Each leader in turn is
 *   1. paused (SIGSTOP): its lease expires, the standby takes over; resumed
 *      (SIGCONT), it steps down by itself and writes nothing more;
 *   2. cut off: its leader session is terminated by Postgres; a standby takes
 *      over at once (the holder's session is gone, no need to wait for the expiry);
 *   3. killed (SIGKILL): same, and a fresh process replaces it as standby.
 * A new slice of a realistic log is written after each fault. A trigger
 * records every checkpoint write with the backend that made it. At the end:
 * no write by a paused leader after its pause, checkpoints never moved back,
 * every job asked for once in Redis (no job id missing, none extra), and the
 * read models equal a clean rebuild of the same log.
 */

const LEASE_MS = 4_000;
const EVENTS = Number(process.env.FAULTS_LOG_EVENTS ?? 6_000);
const SLICES = 10;
const QUEUE_PREFIX = 'faults-lease';

let database: LogDatabase;
let db: PrivateDatabase;
let redis: PrivateRedis;
let pool: pg.Pool;
let store: PostgresEventStore;
let queues: Queues;
let slices: ReturnType<typeof buildRealisticLog>['streams'][];
let nextSlice = 0;

beforeAll(async () => {
  database = await startLogDatabase({ poolSize: 6 });
  ({ db, pool, store } = database);
  redis = await startPrivateRedis();
  await pool.query(`CREATE TABLE faults_enqueues (os_pid int NOT NULL, job_id text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await pool.query(`CREATE TABLE faults_checkpoint_writes (tbl text NOT NULL, backend_pid int NOT NULL, old_position text, new_position text, at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await pool.query(`CREATE FUNCTION faults_record_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO public.faults_checkpoint_writes (tbl, backend_pid, old_position, new_position) VALUES (TG_TABLE_NAME, pg_backend_pid(), OLD.position, NEW.position);
      RETURN NEW;
    END $$`);
  queues = createQueues(redis.url, QUEUE_PREFIX);
  const { streams } = buildRealisticLog(EVENTS);
  const size = Math.ceil(streams.length / SLICES);
  slices = Array.from({ length: SLICES }, (_, index) => streams.slice(index * size, (index + 1) * size));
}, 180_000);

afterAll(async () => {
  await killAllStarted();
  await queues?.close();
  await database?.close();
  await redis?.destroy();
});

/** Appends the next slice of the log; the new head. */
async function appendSlice(): Promise<string> {
  const slice = slices[nextSlice++];
  if (!slice) throw new Error('no slice of the log left');
  // One stream at a time: the log keeps the causal order of the realistic log (a site before its installations).
  await appendLog(store, slice, 1);
  return logHead(pool);
}

interface Lease {
  holder: string;
  token: string;
  backend_pid: number;
}

interface Role {
  name: 'projections' | 'reactor';
  lease: string;
  processes: RoleProcess[];
  start(): RoleProcess;
  checkpoint(): Promise<string | null>;
}

function role(name: Role['name']): Role {
  const env = { DATABASE_URL: db.url, LOG_LEVEL: 'warn', LEADER_LEASE_MS: String(LEASE_MS) };
  const processes: RoleProcess[] = [];
  let started = 0;
  return name === 'projections'
    ? {
        name,
        lease: leaseName('projections', 'read-models'),
        processes,
        start: () => startProcess('projections/src/main.ts', env, `projections #${++started}`),
        checkpoint: async () => (await pool.query<{ position: string | null }>(`SELECT position FROM proj.checkpoints WHERE name = 'read-models'`)).rows[0]?.position ?? null,
      }
    : {
        name,
        lease: leaseName('reactor', 'reactor'),
        processes,
        start: () => startProcess('faults/support/reactor-process.ts', { ...env, REDIS_URL: redis.url, QUEUE_PREFIX }, `reactor #${++started}`),
        checkpoint: async () => (await pool.query<{ position: string | null }>(`SELECT position FROM jobs.reactor_checkpoints WHERE name = 'reactor'`)).rows[0]?.position ?? null,
      };
}

async function currentLease(name: string): Promise<Lease | undefined> {
  const { rows } = await pool.query<Lease>(`SELECT holder, fencing_token::text AS token, backend_pid FROM consumers.leases WHERE name = $1`, [name]).catch(() => ({ rows: [] as Lease[] }));
  return rows[0];
}

/** The process named in the lease's holder (`host:pid:nonce`). */
function holderProcess(target: Role, lease: Lease): RoleProcess | undefined {
  const pid = Number(lease.holder.split(':').at(-2));
  return target.processes.find((candidate) => candidate.pid === pid);
}

function alive(target: Role): void {
  for (const child of target.processes) if (!child.alive) throw new Error(`a ${target.name} process died by itself (${child.child.exitCode ?? child.child.signalCode})\n${child.output()}`);
}

async function caughtUp(target: Role, head: string, what: string): Promise<void> {
  await until(
    async () => {
      alive(target);
      const position = await target.checkpoint().catch(() => null);
      return position !== null && store.comparePositions(position, head) >= 0;
    },
    `${target.name}: ${what}`,
    120_000,
    20,
  );
}

async function serverNow(): Promise<Date> {
  return (await pool.query<{ now: Date }>('SELECT clock_timestamp() AS now')).rows[0]!.now;
}

type Fault = 'paused' | 'cutOff' | 'killed';

/** One fault of one role's leader: the takeover figures, and what the faulted leader did afterwards. */
async function fault(target: Role, kind: Fault): Promise<Record<string, unknown>> {
  await caughtUp(target, await logHead(pool), `caught up before the ${kind} fault`);
  const before = (await currentLease(target.lease))!;
  const leader = holderProcess(target, before);
  if (!leader) throw new Error(`${target.name}: the lease holder ${before.holder} is none of the started processes`);
  const faultAt = await serverNow();
  const started = performance.now();
  if (kind === 'paused') leader.child.kill('SIGSTOP');
  else if (kind === 'cutOff') await pool.query('SELECT pg_terminate_backend($1)', [before.backend_pid]);
  else {
    await leader.kill();
    target.processes.splice(target.processes.indexOf(leader), 1);
  }
  // The log moves on meanwhile; the takeover is timed from the fault, not from the end of these appends.
  const appended = appendSlice();
  appended.catch(() => undefined); // awaited below; a failed wait for the takeover must not leave it unhandled
  const after = await until(
    async () => {
      const lease = await currentLease(target.lease);
      return lease && lease.token !== before.token ? lease : undefined;
    },
    `${target.name}: a new leader after the ${kind} fault`,
    60_000,
    20,
  );
  const takeoverMs = Math.round(performance.now() - started);
  const newLeader = holderProcess(target, after);
  const head = await appended;
  await caughtUp(target, head, `the new leader to apply what was written after the ${kind} fault`);
  const caughtUpMs = Math.round(performance.now() - started);
  const figures: Record<string, unknown> = { takeoverMs, caughtUpMs, newLeaderIsAnotherProcess: newLeader !== leader };
  if (kind === 'paused') {
    expect(newLeader).not.toBe(leader);
    leader.child.kill('SIGCONT');
    // Resumed, it finds its lease gone and stands by; the log moves on meanwhile.
    await until(() => leader.output().includes(`${target.name}: lease lost`), `the resumed ${target.name} process to step down`, 30_000, 20);
    await caughtUp(target, await appendSlice(), 'the new leader to apply what was written after the resume');
    expect((await currentLease(target.lease))!.token).toBe(after.token);
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM faults_checkpoint_writes WHERE backend_pid = $1 AND at >= $2`, [before.backend_pid, faultAt]);
    expect(rows[0]!.n, `checkpoint writes by the paused ${target.name} leader after its pause`).toBe(0);
    if (target.name === 'reactor') {
      const enqueued = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM faults_enqueues WHERE os_pid = $1 AND at >= $2`, [leader.pid, faultAt]);
      expect(enqueued.rows[0]!.n, 'jobs enqueued by the paused reactor after its pause').toBe(0);
    }
    figures.writesByThePausedLeaderAfterItsPause = rows[0]!.n;
  }
  // Two processes again: the next fault has a standby.
  if (kind === 'killed') target.processes.push(target.start());
  return figures;
}

async function allEvents(): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let from: string | null = null;
  for (;;) {
    const slice = await store.readAll({ from, maxCount: 1_000 });
    events.push(...slice.events);
    if (slice.events.length === 0 || slice.caughtUp) return events;
    from = slice.checkpoint;
  }
}

describe('the projections runner and the reactor as leased, leader-elected consumers', () => {
  it('a paused, a cut-off and a killed leader are each replaced within the lease; a resumed one writes nothing', { timeout: 600_000 }, async () => {
    await appendSlice();
    const projections = role('projections');
    const reactor = role('reactor');
    for (const target of [projections, reactor]) target.processes.push(target.start(), target.start());
    await caughtUp(projections, await logHead(pool), 'the first projections leader to catch up');
    await caughtUp(reactor, await logHead(pool), 'the first reactor leader to catch up');
    await pool.query(`CREATE TRIGGER faults_record AFTER UPDATE OF position ON proj.checkpoints FOR EACH ROW EXECUTE FUNCTION faults_record_checkpoint()`);
    await pool.query(`CREATE TRIGGER faults_record AFTER UPDATE OF position ON jobs.reactor_checkpoints FOR EACH ROW EXECUTE FUNCTION faults_record_checkpoint()`);

    const measured: Record<string, Record<string, unknown>> = { projections: {}, reactor: {} };
    for (const kind of ['paused', 'cutOff', 'killed'] as const) {
      for (const target of [projections, reactor]) measured[target.name]![kind] = await fault(target, kind);
    }
    const head = await logHead(pool);
    await caughtUp(projections, head, 'the end of the log');
    await caughtUp(reactor, head, 'the end of the log');

    // Checkpoints only ever moved forward, whoever wrote them.
    const { rows: written } = await pool.query<{ tbl: string; old_position: string | null; new_position: string | null }>(
      'SELECT tbl, old_position, new_position FROM faults_checkpoint_writes ORDER BY at',
    );
    const backwards = written.filter((row) => row.old_position !== null && (row.new_position === null || store.comparePositions(row.new_position, row.old_position) < 0));
    expect(backwards).toEqual([]);

    // Every job the log asks for is in Redis once, none other.
    const expected = new Set((await allEvents()).flatMap((event) => reactions.filter((reaction) => reaction.handles.includes(event.type)).flatMap((reaction) => reaction.jobsFor(event).map((job) => job.jobId))));
    const inRedis: string[] = [];
    for (const name of QUEUE_NAMES) {
      const jobs = await queues.get(name).getJobs(['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized', 'waiting-children']);
      inRedis.push(...jobs.map((job) => job.id!));
    }
    expect(expected.size).toBeGreaterThan(0);
    expect(inRedis.length).toBe(new Set(inRedis).size);
    expect(new Set(inRedis)).toEqual(expected);
    const { rows: asked } = await pool.query<{ requests: number; distinct_jobs: number }>('SELECT count(*)::int AS requests, count(DISTINCT job_id)::int AS distinct_jobs FROM faults_enqueues');

    // The read models built across the takeovers equal a clean rebuild of the same log.
    const live = await snapshotReadModels(pool);
    for (const child of [...projections.processes, ...reactor.processes]) await child.stop();
    await pool.query(`UPDATE proj.checkpoints SET rebuild_requested = true`);
    const rebuilder = projections.start();
    projections.processes.splice(0, projections.processes.length, rebuilder);
    await until(
      async () => {
        alive(projections);
        const { rows } = await pool.query<{ position: string | null; rebuild_requested: boolean }>(`SELECT position, rebuild_requested FROM proj.checkpoints`);
        return rows[0] && !rows[0].rebuild_requested && rows[0].position !== null && store.comparePositions(rows[0].position, head) >= 0;
      },
      'the clean rebuild',
      300_000,
      50,
    );
    const rebuilt = await snapshotReadModels(pool);
    await rebuilder.stop();
    expect(snapshotDifferences(live, rebuilt)).toEqual([]);

    recordFigures('leader-lease', {
      leaseMs: LEASE_MS,
      eventsInLog: (await allEvents()).length,
      takeover: measured,
      checkpointWrites: written.length,
      jobsExpected: expected.size,
      enqueueRequests: asked[0]!.requests,
      distinctJobsRequested: asked[0]!.distinct_jobs,
      jobsInRedis: inRedis.length,
      tablesCompared: Object.keys(rebuilt).length,
    });
  });
});
