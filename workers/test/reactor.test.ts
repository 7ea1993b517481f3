import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { createQueues, type Queues } from '../src/queues.js';
import { Reactor, type Reaction } from '../src/reactor.js';
import { TEST_REDIS_URL, obliterateQueues } from './support/test-workers.js';

let db: TestDatabase;
let pool: pg.Pool;
let store: EventStore & { migrate(): Promise<void> };
let queues: Queues;
const prefix = `test-reactor-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  db = await createTestDatabase('workers_reactor');
  pool = new pg.Pool({ connectionString: db.url });
  pool.on('error', () => undefined); // DROP DATABASE … WITH (FORCE) at the end
  store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
  await store.migrate();
  queues = createQueues(TEST_REDIS_URL, prefix);
});

afterAll(async () => {
  await obliterateQueues(queues);
  await queues?.close();
  await store?.close();
  await pool?.end();
  await db?.drop();
});

const reportOnClose: Reaction = {
  name: 'reportOnClose',
  handles: ['TicketClosed'],
  jobsFor: (event: RecordedEvent) => [{ queue: 'reports', name: 'render-report', jobId: `report-${event.id}`, data: { ticketStream: event.streamId } }],
};

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('reactor', () => {
  it('enqueues one job per triggering event, and a replay from position 0 adds none', async () => {
    const reportsQueue: Queue = queues.get('reports');
    for (let i = 0; i < 3; i++) {
      await store.appendToStream(`ticket-${randomUUID()}`, [
        { id: randomUUID(), type: 'TicketOpened', data: {} },
        { id: randomUUID(), type: 'TicketClosed', data: {} },
      ], { expectedRevision: 'no_stream' });
    }
    const reactor = new Reactor({ pool, store, reactions: [reportOnClose], enqueue: queues.enqueue, name: 'r1' });
    await reactor.migrate();
    await reactor.start();
    await waitFor(async () => (await reportsQueue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')) === 3);
    await waitFor(async () => reactor.hasCaughtUp);
    await reactor.stop();

    // Same reactions, checkpoint forgotten: every event is seen again, no job is added.
    await pool.query('UPDATE jobs.reactor_checkpoints SET position = NULL WHERE name = $1', ['r1']);
    const replay = new Reactor({ pool, store, reactions: [reportOnClose], enqueue: queues.enqueue, name: 'r1' });
    await replay.start();
    await waitFor(async () => replay.hasCaughtUp);
    await replay.stop();
    expect(await reportsQueue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')).toBe(3);
    const jobs = await reportsQueue.getJobs(['waiting']);
    expect(jobs.every((job) => job.id?.startsWith('report-'))).toBe(true);
  });

  it('keeps the batch when the queue is unreachable, and enqueues it once it is back', async () => {
    let fail = true;
    const enqueued: string[] = [];
    const flaky = async (jobs: readonly { jobId: string }[]) => {
      if (fail) throw new Error('Redis down');
      enqueued.push(...jobs.map((job) => job.jobId));
    };
    const stream = `ticket-${randomUUID()}`;
    const closedId = randomUUID();
    await store.appendToStream(stream, [{ id: closedId, type: 'TicketClosed', data: {} }], { expectedRevision: 'no_stream' });
    const reactor = new Reactor({ pool, store, reactions: [reportOnClose], enqueue: flaky, name: 'r2' });
    await reactor.migrate();
    await reactor.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stalled = await pool.query('SELECT position FROM jobs.reactor_checkpoints WHERE name = $1', ['r2']);
    expect(stalled.rows[0].position).toBeNull();
    fail = false;
    await waitFor(async () => enqueued.includes(`report-${closedId}`));
    await reactor.stop();
  });

  it('runs one reactor at a time; a standby takes over when the active one’s session dies', async () => {
    const seen: string[] = [];
    const record = async (jobs: readonly { jobId: string }[]) => {
      seen.push(...jobs.map((job) => job.jobId));
    };
    const first = new Reactor({ pool, store, reactions: [reportOnClose], enqueue: record, name: 'r3', standbyRetryMs: 100 });
    const second = new Reactor({ pool, store, reactions: [reportOnClose], enqueue: record, name: 'r3', standbyRetryMs: 100 });
    await first.migrate();
    await first.start();
    await second.start();
    expect([first.isActive, second.isActive]).toEqual([true, false]);
    await waitFor(async () => first.hasCaughtUp);

    // The active reactor's leader session dies (as when its process is killed).
    await pool.query(`SELECT pg_terminate_backend(backend_pid) FROM consumers.leases WHERE name = 'reactor:r3'`);
    const closedId = randomUUID();
    await store.appendToStream(`ticket-${randomUUID()}`, [{ id: closedId, type: 'TicketClosed', data: {} }], { expectedRevision: 'no_stream' });
    await waitFor(async () => seen.includes(`report-${closedId}`));
    expect(second.isActive || first.isActive).toBe(true);
    expect(seen.filter((id) => id === `report-${closedId}`)).toHaveLength(1);
    await first.stop();
    await second.stop();
  });

  it('refuses job ids containing ":" (BullMQ would misread them)', async () => {
    await expect(queues.enqueue([{ queue: 'reports', name: 'x', jobId: 'a:b', data: {} }])).rejects.toThrow(/contains ':'/);
  });

  it('stores the position of job-less batches at most once a second, and still reaches the head of the log', async () => {
    const reactor = new Reactor({ pool, store, reactions: [reportOnClose], enqueue: queues.enqueue, name: 'r3' });
    await reactor.migrate();
    await pool.query(`CREATE TABLE IF NOT EXISTS checkpoint_writes (n int NOT NULL)`);
    await pool.query(`CREATE OR REPLACE FUNCTION count_checkpoint_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.name = 'r3' THEN INSERT INTO checkpoint_writes VALUES (1); END IF; RETURN NEW; END $$`);
    await pool.query(`CREATE TRIGGER count_writes AFTER UPDATE ON jobs.reactor_checkpoints FOR EACH ROW EXECUTE FUNCTION count_checkpoint_write()`);
    await reactor.start();
    await waitFor(async () => reactor.hasCaughtUp);
    await pool.query('DELETE FROM checkpoint_writes');

    // 40 commands' worth of events the reactor has no job for, each waking it.
    const started = Date.now();
    for (let i = 0; i < 40; i++) {
      await store.appendToStream(`ticket-${randomUUID()}`, [{ id: randomUUID(), type: 'TicketOpened', data: {} }], { expectedRevision: 'no_stream' });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const head = (await store.headPosition())!;
    const stored = async () => (await pool.query<{ position: string | null }>('SELECT position FROM jobs.reactor_checkpoints WHERE name = $1', ['r3'])).rows[0]!.position;
    // The last position is stored by the deferred write, about a second later.
    await waitFor(async () => {
      const position = await stored();
      return position !== null && store.comparePositions(position, head) >= 0;
    });
    const { rows } = await pool.query<{ writes: number }>('SELECT count(*)::int AS writes FROM checkpoint_writes');
    // One write a second at most, plus the deferred one (a loaded machine makes the loop longer, not the writes denser).
    const seconds = Math.ceil((Date.now() - started) / 1000);
    expect(rows[0]!.writes).toBeGreaterThan(0);
    expect(rows[0]!.writes).toBeLessThanOrEqual(Math.min(seconds + 1, 39));

    // Stopping stores what was reached, so a restart does not re-read it.
    await store.appendToStream(`ticket-${randomUUID()}`, [{ id: randomUUID(), type: 'TicketOpened', data: {} }], { expectedRevision: 'no_stream' });
    const last = (await store.headPosition())!;
    await waitFor(async () => reactor.hasCaughtUp && (await store.headPosition()) === last);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await reactor.stop();
    expect(store.comparePositions((await stored())!, last)).toBeGreaterThanOrEqual(0);
  });
});
