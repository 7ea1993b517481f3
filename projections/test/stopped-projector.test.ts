import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type AppendResult, type EventStore, type RecordedEvent, type SubscribeOptions } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { rebuildReadModels, retryStoppedReadModels } from '../src/maintenance.js';
import { ProjectionWatcher } from '../src/projection-watcher.js';
import { eventByEvent, type Projector } from '../src/projector.js';
import { ProjectionRunner } from '../src/runner/runner.js';
import type { RunnerLogger } from '../src/runner/runner-options.js';
import { readStoppedProjectors } from '../src/stopped-projectors.js';
import { event, waitUntil } from './support.js';

/*
 * Issue 17: one accepted request stopped every agency's read side for good.
 * A projector that cannot write an event (here: a label longer than its
 * column) must stop alone, just before that event, with the event recorded;
 * the other read models and the position read-your-writes waits for go on; a
 * restart, or a retry, tries it again from its own checkpoint; and nothing is
 * ever applied twice. Every projector below counts what it applies in a
 * non-idempotent counter, so a double application would show.
 */

interface Kinds {
  counted: string;
  renamed: string;
}
const kindsFor = (prefix: string): Kinds => ({ counted: `${prefix}Counted`, renamed: `${prefix}Renamed` });

const TOO_LONG = 'un libellé bien trop long pour la colonne';

/**
 * A projector whose table keeps, per stream, `columns` and how many events it
 * took; `write` writes that row. Each event it is given also bumps a
 * non-idempotent counter first.
 */
function countingProjector(name: string, kinds: Kinds, columns: string, write: (tx: pg.PoolClient, e: RecordedEvent) => Promise<unknown>, extra: Partial<Projector> = {}): Projector {
  return {
    name,
    version: 1,
    handles: [kinds.counted, kinds.renamed],
    setupSql: `
      CREATE TABLE IF NOT EXISTS rm.${name} (stream_id text PRIMARY KEY, ${columns}, events int NOT NULL, last_revision int NOT NULL);
      CREATE TABLE IF NOT EXISTS rm.${name}_applied (id int PRIMARY KEY, applied int NOT NULL);
      INSERT INTO rm.${name}_applied VALUES (1, 0) ON CONFLICT DO NOTHING;`,
    apply: eventByEvent(async (tx, e) => {
      await tx.query(`UPDATE rm.${name}_applied SET applied = applied + 1 WHERE id = 1`);
      await write(tx, e);
      return [e.streamId];
    }),
    ...extra,
  };
}

/** Counts each stream's events; never fails. */
function countsProjector(name: string, kinds: Kinds): Projector {
  return countingProjector(name, kinds, 'unused int', (tx, e) =>
    tx.query(
      `INSERT INTO rm.${name} (stream_id, events, last_revision) VALUES ($1, 1, $2)
       ON CONFLICT (stream_id) DO UPDATE SET events = rm.${name}.events + 1, last_revision = $2 WHERE rm.${name}.last_revision < $2`,
      [e.streamId, e.revision],
    ),
  );
}

/**
 * Keeps each stream's label in a varchar(12), as a read model whose column is
 * narrower than what was accepted upstream: a longer label fails (22001)
 * until `fix.fixed` (the repaired code cuts it).
 */
function labelsProjector(name: string, kinds: Kinds, fix: { fixed: boolean }, extra: Partial<Projector> = {}): Projector {
  return countingProjector(
    name,
    kinds,
    'label varchar(12)',
    (tx, e) => {
      const label = e.type === kinds.renamed ? String((e.data as { label: string }).label) : null;
      return tx.query(
        `INSERT INTO rm.${name} (stream_id, label, events, last_revision) VALUES ($1, ${fix.fixed ? 'left($2, 12)' : '$2'}, 1, $3)
         ON CONFLICT (stream_id) DO UPDATE SET label = coalesce(EXCLUDED.label, rm.${name}.label), events = rm.${name}.events + 1, last_revision = $3
         WHERE rm.${name}.last_revision < $3`,
        [e.streamId, label, e.revision],
      );
    },
    extra,
  );
}

let db: TestDatabase;
let pool: pg.Pool;
let store: EventStore & { migrate(): Promise<void> };
const started: ProjectionRunner[] = [];
const watchers: ProjectionWatcher[] = [];

beforeAll(async () => {
  db = await createTestDatabase('projections_stopped');
  pool = new pg.Pool({ connectionString: db.url, max: 10 });
  pool.on('error', () => undefined); // DROP DATABASE … WITH (FORCE) at the end
  store = createPostgresEventStore({ pool, pollIntervalMs: 50, retryDelayMs: 100 });
  await store.migrate();
});

afterEach(async () => {
  for (const watcher of watchers.splice(0)) await watcher.close();
  for (const runner of started.splice(0)) await runner.stop();
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await db?.drop();
});

/** What the runner logged at error level. */
const errorLogs: { obj: unknown; msg: string | undefined }[] = [];
const logger: RunnerLogger = { info() {}, warn() {}, error: (obj, msg) => void errorLogs.push({ obj, msg }) };

async function startRunner(name: string, projectors: readonly Projector[], batchSize = 100): Promise<ProjectionRunner> {
  const runner = new ProjectionRunner({ pool, store, projectors, name, batchSize, standbyRetryMs: 50, logger });
  started.push(runner);
  await runner.migrate();
  await runner.start();
  return runner;
}

const compare = (a: string, b: string) => store.comparePositions(a, b);

function append(stream: string, events: { type: string; data?: Record<string, unknown> }[]): Promise<AppendResult> {
  return store.appendToStream(
    stream,
    events.map((e) => event(e.type, e.data ?? {})),
    { expectedRevision: 'any' },
  );
}

interface CheckpointRow {
  position: string | null;
  rebuild_requested: boolean;
  projector_positions: Record<string, string | null>;
}

async function checkpointRow(runner: string): Promise<CheckpointRow> {
  const { rows } = await pool.query<CheckpointRow>('SELECT position, rebuild_requested, projector_positions FROM proj.checkpoints WHERE name = $1', [runner]);
  return rows[0]!;
}

/** Waits until the runner's position (what read-your-writes waits for) includes `position`. */
async function settle(runner: string, position: string): Promise<void> {
  await waitUntil(
    async () => {
      const row = await checkpointRow(runner);
      return !row.rebuild_requested && row.position !== null && compare(row.position, position) >= 0;
    },
    15_000,
    `runner ${runner} to reach ${position}`,
  );
}

async function applied(table: string): Promise<number> {
  const { rows } = await pool.query<{ applied: number }>(`SELECT applied FROM rm.${table}_applied WHERE id = 1`);
  return rows[0]!.applied;
}

async function labels(table: string): Promise<{ stream_id: string; label: string | null; events: number }[]> {
  const { rows } = await pool.query(`SELECT stream_id, label, events FROM rm.${table} ORDER BY stream_id`);
  return rows as { stream_id: string; label: string | null; events: number }[];
}

/** Stream ids that sort in the order they are listed. */
const streamsFor = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}-${randomUUID()}`);

async function recorded(stream: string): Promise<RecordedEvent[]> {
  return store.readStream(stream);
}

describe('a read model that cannot write an event', () => {
  it('stops alone, just before that event; the other read models and the position go on; a restart tries it again; fixed, it catches up once', async () => {
    const kinds = kindsFor('A');
    const fix = { fixed: false };
    const projectors = () => [countsProjector('a_counts', kinds), labelsProjector('a_labels', kinds, fix)];
    const first = await startRunner('a', projectors());
    const [s1, s2, s3, s4] = streamsFor('a', 4) as [string, string, string, string];
    await append(s1, [{ type: kinds.counted }, { type: kinds.renamed, data: { label: 'court' } }]);
    await append(s2, [{ type: kinds.counted }, { type: kinds.renamed, data: { label: TOO_LONG } }]);
    const [beforePoison, poison] = (await recorded(s2)) as [RecordedEvent, RecordedEvent];
    const afterPoison = await append(s3, [{ type: kinds.counted }]);
    await settle('a', afterPoison.position);

    // The healthy read model has everything; the failing one everything before the event.
    expect(await applied('a_counts')).toBe(5);
    expect(await applied('a_labels')).toBe(3);
    expect(await labels('a_labels')).toEqual([
      { stream_id: s1, label: 'court', events: 2 },
      { stream_id: s2, label: null, events: 1 },
    ]);
    const stops = await readStoppedProjectors(pool, 'a');
    expect(stops).toEqual([
      expect.objectContaining({
        runner: 'a',
        projector: 'a_labels',
        position: poison.position,
        eventId: poison.id,
        eventType: kinds.renamed,
        streamId: s2,
        errorCode: '22001',
        stoppedWith: null,
      }),
    ]);
    expect(stops[0]!.error).not.toBe('');
    expect(first.stoppedProjectors.map((stopped) => stopped.projector)).toEqual(['a_labels']);
    // One error line for the operator, with the event.
    expect(errorLogs.filter(({ msg }) => msg?.includes('a_labels'))).toEqual([
      { obj: expect.objectContaining({ projector: 'a_labels', eventId: poison.id, position: poison.position, err: expect.any(Error) }), msg: expect.stringContaining('stopped') },
    ]);
    // Its own checkpoint is just before the event; every other projector is at the runner's position.
    const row = await checkpointRow('a');
    expect(Object.keys(row.projector_positions)).toEqual(['a_labels']);
    const own = row.projector_positions.a_labels!;
    expect(compare(own, beforePoison.position)).toBeGreaterThanOrEqual(0);
    expect(compare(own, poison.position)).toBeLessThan(0);

    // Later writes: read-your-writes answers, the healthy model applies them, the stopped one is left alone.
    const watcher = new ProjectionWatcher({ pool, connectionString: db.url, compare, runner: 'a', pollIntervalMs: 50 });
    watchers.push(watcher);
    await watcher.start();
    const later = await append(s4, [{ type: kinds.counted }]);
    expect(await watcher.waitFor(later.position, 10_000)).toBe(true);
    expect(await applied('a_counts')).toBe(6);
    expect(await applied('a_labels')).toBe(3);
    expect(first.position).not.toBeNull();
    expect(compare(first.position!, later.position)).toBeGreaterThanOrEqual(0);

    // A restart tries it again from its own checkpoint: same event, same failure, nothing applied twice.
    await first.stop();
    const second = await startRunner('a', projectors());
    await waitUntil(async () => (await readStoppedProjectors(pool, 'a'))[0]?.stoppedAt !== stops[0]!.stoppedAt, 15_000, 'the restarted runner to try again');
    await second.waitUntilCaughtUp();
    expect(await readStoppedProjectors(pool, 'a')).toEqual([expect.objectContaining({ projector: 'a_labels', position: poison.position, eventId: poison.id })]);
    expect(await applied('a_counts')).toBe(6);
    expect(await applied('a_labels')).toBe(3);

    // Repaired and restarted: it catches up with the others, each event applied once, and screens are told to refetch.
    let resynced = false;
    watcher.on('reset', () => (resynced = true));
    await second.stop();
    fix.fixed = true;
    const third = await startRunner('a', projectors());
    await waitUntil(async () => (await readStoppedProjectors(pool, 'a')).length === 0 && Object.keys((await checkpointRow('a')).projector_positions).length === 0, 15_000, 'the repaired read model to catch up');
    expect(third.stoppedProjectors).toEqual([]);
    expect(await applied('a_labels')).toBe(6);
    expect(await applied('a_counts')).toBe(6);
    expect(await labels('a_labels')).toEqual([
      { stream_id: s1, label: 'court', events: 2 },
      { stream_id: s2, label: TOO_LONG.slice(0, 12), events: 2 },
      { stream_id: s3, label: null, events: 1 },
      { stream_id: s4, label: null, events: 1 },
    ]);
    expect(compare((await checkpointRow('a')).position!, later.position)).toBeGreaterThanOrEqual(0);
    await waitUntil(() => resynced, 10_000, 'a resync for the screens');
  });

  it('a restart without a fix stops it again at once, then reads on from where the others are rather than replay the log to them', async () => {
    const kinds = kindsFor('H');
    const projectors = () => [countsProjector('h_counts', kinds), labelsProjector('h_labels', kinds, { fixed: false })];
    const first = await startRunner('h', projectors(), 5);
    const [poisoned, ...others] = streamsFor('h', 11) as [string, ...string[]];
    await append(poisoned, [{ type: kinds.renamed, data: { label: TOO_LONG } }]);
    let last: AppendResult | undefined;
    for (const stream of others) last = await append(stream, [{ type: kinds.counted }, { type: kinds.counted }, { type: kinds.counted }]);
    await settle('h', last!.position);
    const [stop] = await readStoppedProjectors(pool, 'h');
    await first.stop();

    // The same store, recording where each subscription starts.
    const starts: (string | null)[] = [];
    const recording: EventStore = Object.create(store) as EventStore;
    recording.subscribeToAll = (options: SubscribeOptions) => {
      starts.push(options.from);
      return store.subscribeToAll(options);
    };
    const second = new ProjectionRunner({ pool, store: recording, projectors: projectors(), name: 'h', batchSize: 5, standbyRetryMs: 50, logger });
    started.push(second);
    await second.start();
    await waitUntil(async () => (await readStoppedProjectors(pool, 'h'))[0]?.stoppedAt !== stop!.stoppedAt, 15_000, 'the restarted runner to try again');
    await waitUntil(() => starts.length === 2, 15_000, 'the runner to resubscribe');
    // From the stopped read model's checkpoint (30 events behind, 6 batches of 5), then straight from the others' position.
    expect(compare(starts[0]!, stop!.position)).toBeLessThan(0);
    expect(compare(starts[1]!, last!.position)).toBeGreaterThanOrEqual(0);
    expect(await applied('h_counts')).toBe(31);
    expect(await applied('h_labels')).toBe(0);
  });

  it('a set-based projector (one statement per batch) stops at the exact event, with the events before it in the batch applied', async () => {
    const kinds = kindsFor('B');
    const fix = { fixed: false };
    // One INSERT for the whole batch: one long label fails it whole.
    const setBased = labelsProjector('b_labels', kinds, fix, {
      async apply(tx, events) {
        await tx.query(`UPDATE rm.b_labels_applied SET applied = applied + $1 WHERE id = 1`, [events.length]);
        await tx.query(
          `INSERT INTO rm.b_labels (stream_id, label, events, last_revision)
           SELECT stream_id, label, 1, revision FROM unnest($1::text[], $2::text[], $3::int[]) AS e(stream_id, label, revision)`,
          [events.map((e) => e.streamId), events.map((e) => String((e.data as { label: string }).label)), events.map((e) => e.revision)],
        );
        return events.map((e) => e.streamId);
      },
    });
    const streams = streamsFor('b', 6);
    // Written before the runner starts, so they come in one batch.
    for (const [i, stream] of streams.entries()) await append(stream, [{ type: kinds.renamed, data: { label: i === 3 ? TOO_LONG : `libellé ${i}` } }]);
    const [poison] = (await recorded(streams[3]!)) as [RecordedEvent];
    const last = (await recorded(streams[5]!))[0]!;
    await startRunner('b', [countsProjector('b_counts', kinds), setBased]);
    await settle('b', last.position);

    expect(await applied('b_counts')).toBe(6);
    expect(await applied('b_labels')).toBe(3);
    expect((await labels('b_labels')).map((row) => row.label)).toEqual(['libellé 0', 'libellé 1', 'libellé 2']);
    expect(await readStoppedProjectors(pool, 'b')).toEqual([expect.objectContaining({ projector: 'b_labels', position: poison.position, streamId: streams[3], errorCode: '22001' })]);
  });

  it('a read model that reads the stopped one’s tables stops with it, on the same event, and both resume together', async () => {
    const kinds = kindsFor('C');
    const fix = { fixed: false };
    const source = () => labelsProjector('c_source', kinds, fix);
    // Copies the source's label: applied after the source stopped, it would copy a stale one for good.
    const reader = (): Projector =>
      countingProjector(
        'c_reader',
        kinds,
        'label text',
        (tx, e) =>
          tx.query(
            `INSERT INTO rm.c_reader (stream_id, label, events, last_revision)
             SELECT $1, (SELECT label FROM rm.c_source WHERE stream_id = $1), 1, $2
             ON CONFLICT (stream_id) DO UPDATE SET label = EXCLUDED.label, events = rm.c_reader.events + 1, last_revision = $2 WHERE rm.c_reader.last_revision < $2`,
            [e.streamId, e.revision],
          ),
        { readsFrom: ['c_source'] },
      );
    expect(() => new ProjectionRunner({ pool, store, projectors: [reader(), source()], name: 'c' })).toThrow(/register c_source before it/);

    const projectors = () => [source(), reader(), countsProjector('c_counts', kinds)];
    const first = await startRunner('c', projectors());
    const [s1, s2] = streamsFor('c', 2) as [string, string];
    await append(s1, [{ type: kinds.renamed, data: { label: TOO_LONG } }]);
    const [poison] = (await recorded(s1)) as [RecordedEvent];
    const last = await append(s2, [{ type: kinds.renamed, data: { label: 'plus tard' } }]);
    await settle('c', last.position);

    expect(await applied('c_counts')).toBe(2);
    expect(await applied('c_source')).toBe(0);
    expect(await applied('c_reader')).toBe(0);
    const stops = await readStoppedProjectors(pool, 'c');
    expect(stops.map(({ projector, position, stoppedWith, eventId }) => ({ projector, position, stoppedWith, eventId }))).toEqual([
      { projector: 'c_reader', position: poison.position, stoppedWith: 'c_source', eventId: poison.id },
      { projector: 'c_source', position: poison.position, stoppedWith: null, eventId: poison.id },
    ]);

    await first.stop();
    fix.fixed = true;
    await startRunner('c', projectors());
    await waitUntil(async () => (await readStoppedProjectors(pool, 'c')).length === 0 && Object.keys((await checkpointRow('c')).projector_positions).length === 0, 15_000, 'both to resume');
    expect(await applied('c_source')).toBe(2);
    expect(await applied('c_reader')).toBe(2);
    expect((await labels('c_reader')).map((row) => row.label)).toEqual([TOO_LONG.slice(0, 12), 'plus tard']);
  });

  it('a transient failure (serialization, deadlock) or a one-off error never stops a read model', async () => {
    const kinds = kindsFor('D');
    let conflicts = 0;
    let deadlocks = 0;
    let oneOff = 0;
    const base = countsProjector('d_flaky', kinds);
    const flaky: Projector = {
      ...base,
      apply: eventByEvent(async (tx, e) => {
        const label = (e.data as { label?: string }).label;
        if (label === 'conflit' && conflicts++ < 2) await tx.query(`DO $$ BEGIN RAISE EXCEPTION 'conflit simulé' USING ERRCODE = '40001'; END $$`);
        if (label === 'verrou' && deadlocks++ < 2) await tx.query(`DO $$ BEGIN RAISE EXCEPTION 'interblocage simulé' USING ERRCODE = '40P01'; END $$`);
        if (label === 'une fois' && oneOff++ < 1) throw new Error('erreur passagère');
        return base.apply(tx, [e]);
      }),
    };
    const runner = await startRunner('d', [flaky, countsProjector('d_counts', kinds)]);
    const [s1, s2, s3] = streamsFor('d', 3) as [string, string, string];
    await append(s1, [{ type: kinds.renamed, data: { label: 'conflit' } }]);
    await append(s2, [{ type: kinds.renamed, data: { label: 'verrou' } }]);
    const last = await append(s3, [{ type: kinds.renamed, data: { label: 'une fois' } }]);
    await settle('d', last.position);

    expect(conflicts).toBeGreaterThanOrEqual(3);
    expect(deadlocks).toBeGreaterThanOrEqual(3);
    expect(oneOff).toBeGreaterThanOrEqual(2);
    expect(await readStoppedProjectors(pool, 'd')).toEqual([]);
    expect(runner.stoppedProjectors).toEqual([]);
    expect((await checkpointRow('d')).projector_positions).toEqual({});
    expect(await applied('d_flaky')).toBe(3);
    expect(await applied('d_counts')).toBe(3);
  });

  it('a retry without restart resumes it once the cause is repaired, and says so when it stops again', async () => {
    const kinds = kindsFor('G');
    const runner = await startRunner('g', [countsProjector('g_counts', kinds), labelsProjector('g_labels', kinds, { fixed: false })]);
    const [s1, s2] = streamsFor('g', 2) as [string, string];
    await append(s1, [{ type: kinds.renamed, data: { label: TOO_LONG } }]);
    const last = await append(s2, [{ type: kinds.counted }]);
    await settle('g', last.position);
    expect((await readStoppedProjectors(pool, 'g')).map((row) => row.projector)).toEqual(['g_labels']);

    // Nothing repaired: it stops again on the same event.
    const again = await retryStoppedReadModels({ pool, store, runner, pollMs: 50 });
    expect(again.retried.map((row) => row.projector)).toEqual(['g_labels']);
    expect(again.stopped.map((row) => row.projector)).toEqual(['g_labels']);
    expect(again.stopped[0]!.stoppedAt > again.retried[0]!.stoppedAt).toBe(true);
    expect(await applied('g_labels')).toBe(0);

    // The operator widens the column (a repair that needs no new code), then retries.
    await pool.query('ALTER TABLE rm.g_labels ALTER COLUMN label TYPE text');
    const resumed = await retryStoppedReadModels({ pool, store, runner, pollMs: 50 });
    expect(resumed.stopped).toEqual([]);
    expect(await labels('g_labels')).toEqual([
      { stream_id: s1, label: TOO_LONG, events: 1 },
      { stream_id: s2, label: null, events: 1 },
    ]);
    expect(await applied('g_labels')).toBe(2);
    expect(await applied('g_counts')).toBe(2);
    expect((await retryStoppedReadModels({ pool, store, runner })).retried).toEqual([]);
  });

  it('a rebuild does not stall on the event: it completes for every other read model and lists the stopped one', async () => {
    const kinds = kindsFor('E');
    const runner = await startRunner('e', [countsProjector('e_counts', kinds), labelsProjector('e_labels', kinds, { fixed: false })]);
    const [s1, s2, s3] = streamsFor('e', 3) as [string, string, string];
    await append(s1, [{ type: kinds.renamed, data: { label: 'avant' } }]);
    await append(s2, [{ type: kinds.renamed, data: { label: TOO_LONG } }]);
    const [poison] = (await recorded(s2)) as [RecordedEvent];
    const last = await append(s3, [{ type: kinds.renamed, data: { label: 'après' } }]);
    await settle('e', last.position);

    // The rebuild drops rm (every test's tables: this one runs last) and replays.
    const outcome = await rebuildReadModels({ pool, store, runner, pollMs: 50 });
    expect(outcome.ranHere).toBe(true);
    expect(outcome.stopped.map(({ projector, position }) => ({ projector, position }))).toEqual([{ projector: 'e_labels', position: poison.position }]);
    expect(await applied('e_counts')).toBe(3);
    expect(await applied('e_labels')).toBe(1);
    expect((await labels('e_labels')).map((row) => row.label)).toEqual(['avant']);
    expect(compare((await checkpointRow('e')).position!, last.position)).toBeGreaterThanOrEqual(0);
  });
});

describe('upgrading from the single checkpoint', () => {
  it('puts every projector at the stored position: nothing is replayed, nothing rebuilt', async () => {
    const upgraded = await createTestDatabase('projections_upgrade');
    const upgradePool = new pg.Pool({ connectionString: upgraded.url, max: 4 });
    upgradePool.on('error', () => undefined);
    const upgradeStore = createPostgresEventStore({ pool: upgradePool, pollIntervalMs: 50 });
    try {
      await upgradeStore.migrate();
      const kinds = kindsFor('F');
      const projectors = [countsProjector('f_counts', kinds), labelsProjector('f_labels', kinds, { fixed: true })];
      const old = new ProjectionRunner({ pool: upgradePool, store: upgradeStore, projectors });
      await old.migrate();
      await old.start();
      const stream = `f-${randomUUID()}`;
      const first = await upgradeStore.appendToStream(stream, [event(kinds.counted), event(kinds.renamed, { label: 'v1' })], { expectedRevision: 'no_stream' });
      await waitUntil(async () => old.position !== null && upgradeStore.comparePositions(old.position, first.position) >= 0, 15_000, 'the first runner');
      await old.stop();
      // The deployment as it was before per-projector checkpoints.
      await upgradePool.query('ALTER TABLE proj.checkpoints DROP COLUMN projector_positions, DROP COLUMN retry_requested');
      await upgradePool.query('DROP TABLE proj.stopped_projectors');

      const upgradedRunner = new ProjectionRunner({ pool: upgradePool, store: upgradeStore, projectors });
      await upgradedRunner.migrate();
      await upgradedRunner.start();
      const next = await upgradeStore.appendToStream(stream, [event(kinds.counted)], { expectedRevision: 1 });
      await waitUntil(async () => upgradedRunner.position !== null && upgradeStore.comparePositions(upgradedRunner.position, next.position) >= 0, 15_000, 'the upgraded runner');
      await upgradedRunner.stop();
      const count = async (table: string) => (await upgradePool.query<{ applied: number }>(`SELECT applied FROM rm.${table}_applied`)).rows[0]!.applied;
      expect(await count('f_counts')).toBe(3);
      expect(await count('f_labels')).toBe(3);
      const { rows } = await upgradePool.query<{ projector_positions: unknown; retry_requested: boolean }>('SELECT projector_positions, retry_requested FROM proj.checkpoints');
      expect(rows).toEqual([{ projector_positions: {}, retry_requested: false }]);
      expect(await readStoppedProjectors(upgradePool)).toEqual([]);
    } finally {
      await upgradeStore.close();
      await upgradePool.end();
      await upgraded.drop();
    }
  });
});
