import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHealth } from '@fsm/command-api';
import {
  RebaseRefusedError,
  RestoreNeededError,
  createPostgresEventStore,
  openRoleStore,
  rebasePositions,
  type NewEvent,
  type PostgresEventStore,
  type RecordedEvent,
} from '@fsm/eventstore';
import { ProjectionRunner, readModelProjectors } from '@fsm/projections';
import { Reactor } from '@fsm/workers';
import { recordFigures } from './support/figures.js';
import { logHead } from './support/log-head.js';
import { postgresBinDir, startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';
import { ROOT } from './support/processes.js';
import { buildRealisticLog } from './support/realistic-log.js';
import { snapshotDifferences, snapshotReadModels } from './support/rm-snapshot.js';
import { until } from './support/wait.js';

/*
 * Issue 21, item 1 — a dump restored onto another server. Positions carry the
 * writing server's transaction ids; the second server's counter is far lower.
 * The database (log, read-model checkpoints, reactor checkpoint) is dumped from
 * a first private server whose counter was pushed well ahead, restored onto a
 * fresh second one, re-based with `npm run restore-events`'s entry, then used:
 * new appends, a fresh subscriber, the resumed projections and reactor.
 */

const run = promisify(execFile);
const BURNED_XIDS = 3_000;

let source: PrivatePostgres;
let target: PrivatePostgres;
let dumpDir: string;
const phase1: Array<{ stream: string; revision: number; event: NewEvent }> = [];
const phase2: Array<{ stream: string; revision: number; event: NewEvent }> = [];

/** Each event in its own append (its own transaction): the log spans many transaction ids. */
async function appendOneByOne(store: PostgresEventStore, events: typeof phase1): Promise<void> {
  for (const { stream, revision, event } of events) {
    await store.appendToStream(stream, [event], { expectedRevision: revision === 0 ? 'no_stream' : revision - 1 });
  }
}

/** Events of a stream no reaction handles, written by hand to give the source log the shapes concurrency gives it. */
const AUDIT_EARLY: NewEvent = { id: randomUUID(), type: 'RestoreProbeRecorded', data: { which: 'early' }, metadata: {} };
const AUDIT_LATE: NewEvent = { id: randomUUID(), type: 'RestoreProbeRecorded', data: { which: 'late' }, metadata: {} };

/**
 * Two shapes a busy server leaves and a renumbering must keep: an event whose
 * global position is higher than that of an event read after it (its
 * transaction took its id first and committed last), and a gap in the global
 * positions (an append rolled back).
 */
async function interleave(pool: pg.Pool, store: PostgresEventStore): Promise<void> {
  const early = await pool.connect();
  try {
    await early.query('BEGIN');
    await early.query('SELECT pg_current_xact_id()');
    await store.appendToStream('restoreprobe-late', [AUDIT_LATE], { expectedRevision: 'no_stream' });
    await early.query(`SELECT * FROM es.append_to_stream('restoreprobe-early', 'no_stream', $1::jsonb)`, [JSON.stringify([AUDIT_EARLY])]);
    await early.query('COMMIT');
    await early.query('BEGIN');
    await early.query(`SELECT * FROM es.append_to_stream('restoreprobe-gone', 'no_stream', $1::jsonb)`, [
      JSON.stringify([{ ...AUDIT_EARLY, id: randomUUID() }]),
    ]);
    await early.query('ROLLBACK');
  } finally {
    early.release();
  }
  const { rows } = await pool.query<{ stream_id: string; global_position: string }>(
    `SELECT stream_id, global_position FROM es.events WHERE stream_id LIKE 'restoreprobe-%' ORDER BY transaction_id, global_position`,
  );
  // The early transaction is read first although its position is higher.
  expect(rows.map((row) => row.stream_id)).toEqual(['restoreprobe-early', 'restoreprobe-late']);
  expect(Number(rows[0]?.global_position)).toBeGreaterThan(Number(rows[1]?.global_position));
}

async function readWholeLog(store: PostgresEventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let from: string | null = null;
  for (;;) {
    const slice = await store.readAll({ from, maxCount: 500 });
    events.push(...slice.events);
    if (slice.caughtUp) return events;
    from = slice.checkpoint;
  }
}

function recordingReactor(pool: pg.Pool, store: PostgresEventStore, types: readonly string[], seen: string[]): Reactor {
  return new Reactor({
    pool,
    store,
    reactions: [{ name: 'recordSeen', handles: types, jobsFor: (event: RecordedEvent) => [{ queue: 'restore', name: 'seen', jobId: event.id, data: {} }] }],
    enqueue: async (jobs) => {
      seen.push(...jobs.map((job) => job.jobId));
    },
  });
}

async function checkpointsAtHead(pool: pg.Pool): Promise<boolean> {
  const head = await logHead(pool);
  const { rows } = await pool.query<{ projections: string | null; reactor: string | null }>(
    `SELECT (SELECT position FROM proj.checkpoints WHERE name = 'read-models') AS projections,
            (SELECT position FROM jobs.reactor_checkpoints WHERE name = 'reactor') AS reactor`,
  );
  return rows[0]?.projections === head && rows[0]?.reactor === head;
}

async function checkpointsOf(pool: pg.Pool): Promise<unknown[]> {
  const { rows } = await pool.query(
    `SELECT name, position, projector_positions FROM proj.checkpoints UNION ALL SELECT name, position, NULL FROM jobs.reactor_checkpoints ORDER BY 1`,
  );
  return rows;
}

beforeAll(async () => {
  [source, target] = await Promise.all([startPrivatePostgres(), startPrivatePostgres()]);
  dumpDir = await mkdtemp(join(tmpdir(), 'fsm-faults-restore-'));
  const { streams } = buildRealisticLog(240);
  // Half of each stream before the dump, the rest after the restore: the new events continue restored streams.
  for (const { stream, events } of streams) {
    const cut = Math.max(1, Math.floor(events.length / 2));
    events.forEach((event, revision) => (revision < cut ? phase1 : phase2).push({ stream, revision, event }));
  }
});

afterAll(async () => {
  await Promise.allSettled([source?.destroy(), target?.destroy()]);
  if (dumpDir) await rm(dumpDir, { recursive: true, force: true });
});

describe('a dump restored onto another server (issue 21, item 1)', () => {
  it('keeps the log whole and in order: every event delivered once, read models rebuilt equal, the reactor resumes without a skip', async () => {
    const types = [...new Set([...phase1, ...phase2].map((item) => item.event.type))];

    // --- the first server: its counter well ahead, the roles at the head when the dump is taken
    const sourceAdmin = new pg.Client({ connectionString: source.adminUrl });
    await sourceAdmin.connect();
    await sourceAdmin.query('CREATE DATABASE fsm');
    for (let i = 0; i < BURNED_XIDS; i++) await sourceAdmin.query('SELECT pg_current_xact_id()');
    await sourceAdmin.end();
    const sourcePool = new pg.Pool({ connectionString: source.urlOf('fsm'), max: 6 });
    sourcePool.on('error', () => undefined);
    const sourceStore = createPostgresEventStore({ pool: sourcePool });
    await sourceStore.migrate();
    const sourceRunner = new ProjectionRunner({ pool: sourcePool, store: sourceStore, projectors: readModelProjectors });
    await sourceRunner.migrate();
    const sourceSeen: string[] = [];
    const sourceReactor = recordingReactor(sourcePool, sourceStore, types, sourceSeen);
    await sourceReactor.migrate();
    await sourceRunner.start();
    await sourceReactor.start();
    await appendOneByOne(sourceStore, phase1.slice(0, 400));
    await interleave(sourcePool, sourceStore);
    await appendOneByOne(sourceStore, phase1.slice(400));
    await until(() => checkpointsAtHead(sourcePool), 'the source roles at the head', 120_000, 100);
    // The source's read order, which the restored log must keep.
    const sourceOrder = (await readWholeLog(sourceStore)).map((event) => event.id);
    expect(sourceOrder).toHaveLength(phase1.length + 2);
    const sourceHead = await logHead(sourcePool);
    const sourceReadModels = await snapshotReadModels(sourcePool);
    await sourceRunner.stop();
    await sourceReactor.stop();
    await sourceStore.close();
    await sourcePool.end();
    expect(sourceSeen).toEqual(sourceOrder.filter((id) => id !== AUDIT_EARLY.id && id !== AUDIT_LATE.id));

    // --- the dump, restored onto a fresh server
    const dumpFile = join(dumpDir, 'fsm.dump');
    await run(join(postgresBinDir(), 'pg_dump'), ['--format=custom', `--file=${dumpFile}`, source.urlOf('fsm')]);
    const targetAdmin = new pg.Client({ connectionString: target.adminUrl });
    await targetAdmin.connect();
    await targetAdmin.query('CREATE DATABASE fsm');
    await targetAdmin.end();
    await run(join(postgresBinDir(), 'pg_restore'), ['--no-owner', `--dbname=${target.urlOf('fsm')}`, dumpFile]);

    // The symptoms before the re-base: the restored log is invisible on the new server.
    const beforePool = new pg.Pool({ connectionString: target.urlOf('fsm'), max: 2 });
    const beforeStore = createPostgresEventStore({ pool: beforePool, notify: false });
    expect(await beforeStore.headPosition()).toBeNull();
    expect((await beforeStore.readAll()).events).toHaveLength(0);
    // A connected role is refused, and nothing changes.
    const connected = await beforePool.connect();
    await expect(rebasePositions(beforePool)).rejects.toBeInstanceOf(RebaseRefusedError);
    connected.release();
    expect(await logHead(beforePool)).toBe(sourceHead);
    await beforeStore.close();
    await beforePool.end();

    // --- the supported step, twice: the second run changes nothing
    const restoreEvents = () =>
      run(process.execPath, ['--conditions=source', '--import', 'tsx', 'eventstore/src/copy/restore-events-cli.ts', '--url', target.urlOf('fsm')], { cwd: ROOT });
    const first = JSON.parse((await restoreEvents()).stdout) as { events: number; eventsRenumbered: number; positionsChanged: Record<string, number> };
    expect(first.events).toBe(sourceOrder.length);
    expect(first.eventsRenumbered).toBe(sourceOrder.length);
    expect(first.positionsChanged['jobs.reactor_checkpoints.position']).toBe(1);
    expect(first.positionsChanged['proj.checkpoints.position']).toBe(1);
    const pool = new pg.Pool({ connectionString: target.urlOf('fsm'), max: 1 });
    const afterFirst = { events: (await pool.query('SELECT * FROM es.events ORDER BY global_position')).rows, checkpoints: await checkpointsOf(pool) };
    await pool.end();
    const second = JSON.parse((await restoreEvents()).stdout) as { eventsRenumbered: number; positionsChanged: Record<string, number> };
    expect(second.eventsRenumbered).toBe(0);
    expect(Object.values(second.positionsChanged).every((count) => count === 0)).toBe(true);
    const targetPool = new pg.Pool({ connectionString: target.urlOf('fsm'), max: 6 });
    targetPool.on('error', () => undefined); // idle connections die with the server when a failed test tears it down
    expect((await targetPool.query('SELECT * FROM es.events ORDER BY global_position')).rows).toEqual(afterFirst.events);
    expect(await checkpointsOf(targetPool)).toEqual(afterFirst.checkpoints);

    // --- the roles start on the new server and work goes on
    const store = createPostgresEventStore({ pool: targetPool });
    const restoredHead = await store.headPosition();
    expect(restoredHead).toBe(await logHead(targetPool));
    const { rows: resumed } = await targetPool.query<{ position: string }>(`SELECT position FROM jobs.reactor_checkpoints WHERE name = 'reactor'`);
    expect(resumed[0]?.position).toBe(restoredHead);
    const runner = new ProjectionRunner({ pool: targetPool, store, projectors: readModelProjectors });
    await runner.migrate();
    const seen: string[] = [];
    const reactor = recordingReactor(targetPool, store, types, seen);
    await reactor.migrate();
    await runner.start();
    await reactor.start();
    // Restored read models equal the source's: the runner resumed, it did not replay onto them.
    expect(snapshotDifferences(sourceReadModels, await snapshotReadModels(targetPool))).toEqual([]);
    await appendOneByOne(store, phase2);
    await until(() => checkpointsAtHead(targetPool), 'the target roles at the head', 120_000, 100);

    // The reactor resumed exactly after the restored head: every new event, once, in order; none skipped, none replayed.
    expect(seen).toEqual(phase2.map((item) => item.event.id));

    // A fresh subscriber reads every event once, the restored ones first, each stream in revision order.
    const delivered: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({
      from: null,
      onBatch: async (batch) => {
        delivered.push(...batch.events);
      },
    });
    await until(() => delivered.length >= sourceOrder.length + phase2.length, 'the fresh subscriber at the head', 60_000, 50);
    await subscription.stop();
    expect(delivered.map((event) => event.id)).toEqual([...sourceOrder, ...phase2.map((item) => item.event.id)]);
    const lastRevision = new Map<string, number>();
    for (const event of delivered) {
      expect(event.revision).toBe((lastRevision.get(event.streamId) ?? -1) + 1);
      lastRevision.set(event.streamId, event.revision);
    }

    // The resumed read models equal a rebuild from the whole re-based log.
    const resumedReadModels = await snapshotReadModels(targetPool);
    await runner.requestRebuild();
    await until(
      async () => (await targetPool.query(`SELECT rebuild_requested FROM proj.checkpoints WHERE name = 'read-models'`)).rows[0]?.rebuild_requested === false && (await checkpointsAtHead(targetPool)),
      'the rebuild at the head',
      120_000,
      100,
    );
    expect(snapshotDifferences(resumedReadModels, await snapshotReadModels(targetPool))).toEqual([]);

    await runner.stop();
    await reactor.stop();
    await store.close();
    await targetPool.end();
    recordFigures('restore', { restoredEvents: sourceOrder.length, appendedAfter: phase2.length, burnedXids: BURNED_XIDS, sourceHead, restoredHead });
  });
});

describe('a restored dump started without `npm run restore-events` (issue 32, item 15)', () => {
  it('is re-based at start when nothing else is connected; with another session the start is refused naming the command, and health says so', async () => {
    // --- a log written on the first server, its ids well ahead of the second's counter
    const sourceAdmin = new pg.Client({ connectionString: source.adminUrl });
    await sourceAdmin.connect();
    await sourceAdmin.query('CREATE DATABASE fsm_started');
    await sourceAdmin.end();
    const sourcePool = new pg.Pool({ connectionString: source.urlOf('fsm_started'), max: 2 });
    // 20,000 ids burnt in one statement: each aborted subtransaction that wrote took one.
    await sourcePool.query(`CREATE TEMP TABLE burn (n int); DO $$ BEGIN FOR i IN 1..20000 LOOP BEGIN INSERT INTO burn VALUES (i); RAISE EXCEPTION 'burn'; EXCEPTION WHEN others THEN NULL; END; END LOOP; END $$`);
    const sourceStore = createPostgresEventStore({ pool: sourcePool, notify: false });
    await sourceStore.migrate();
    const restored = phase1.slice(0, 60);
    await appendOneByOne(sourceStore, restored);
    const sourceHead = await logHead(sourcePool);
    await sourceStore.close();
    await sourcePool.end();
    const dumpFile = join(dumpDir, 'fsm-started.dump');
    await run(join(postgresBinDir(), 'pg_dump'), ['--format=custom', `--file=${dumpFile}`, source.urlOf('fsm_started')]);
    const targetAdmin = new pg.Client({ connectionString: target.adminUrl });
    await targetAdmin.connect();
    await targetAdmin.query('CREATE DATABASE fsm_started');
    await targetAdmin.end();
    await run(join(postgresBinDir(), 'pg_restore'), ['--no-owner', `--dbname=${target.urlOf('fsm_started')}`, dumpFile]);
    const url = target.urlOf('fsm_started');
    const logged: string[] = [];
    const logger = { warn: () => undefined, info: (_details: object, message: string) => void logged.push(message) };

    // --- another session is connected (a role of another machine, a psql): refused, nothing changed
    const other = new pg.Client({ connectionString: url, application_name: 'autre-role' });
    await other.connect();
    const refused = await openRoleStore({ DATABASE_URL: url }, logger, 2).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RestoreNeededError);
    expect((refused as Error).message).toContain('npm run restore-events');
    expect((refused as Error).message).toContain('autre-role');
    const { rows: unchanged } = await other.query<{ position: string }>(
      `SELECT lpad(transaction_id::text, 20, '0') || '-' || lpad(global_position::text, 20, '0') AS position FROM es.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    expect(unchanged[0]?.position).toBe(sourceHead);
    // Health, from an instance already running on it: down, and why.
    const probePool = new pg.Pool({ connectionString: url, max: 2 });
    const probeStore = createPostgresEventStore({ pool: probePool, notify: false });
    const health = await checkHealth({ pool: probePool, store: probeStore, redisPing: async () => true, watcher: { position: null }, live: { size: 0 } });
    expect(health.status).toBe('down');
    expect(health.eventStore.restoreNeeded).toBe(true);
    expect(health.eventStore.restoreMessage).toContain('npm run restore-events');
    await probeStore.close();
    await probePool.end();
    await other.end();

    // --- alone on the database: the start re-bases it, and writes to restored streams work
    const role = await openRoleStore({ DATABASE_URL: url }, logger, 2);
    try {
      expect(logged.some((message) => message.includes('recalé automatiquement'))).toBe(true);
      expect((await readWholeLog(role.store as PostgresEventStore)).map((event) => event.id)).toEqual(restored.map((item) => item.event.id));
      const next = phase2.find((item) => restored.some((r) => r.stream === item.stream && r.revision === item.revision - 1))!;
      await role.store.appendToStream(next.stream, [next.event], { expectedRevision: next.revision - 1 });
      const health = await checkHealth({ pool: role.pool, store: role.store, redisPing: async () => true, watcher: { position: null }, live: { size: 0 } });
      expect(health.eventStore.restoreNeeded).toBe(false);
    } finally {
      await role.close();
    }
    // A second start changes nothing.
    logged.length = 0;
    const again = await openRoleStore({ DATABASE_URL: url }, logger, 2);
    await again.close();
    expect(logged).toEqual([]);
  });
});
