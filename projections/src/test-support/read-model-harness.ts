import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { createPostgresEventStore, type AppendResult, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import type { Projector } from '../projector.js';
import { ProjectionRunner } from '../runner/runner.js';

export interface ReadModelHarness {
  db: TestDatabase;
  pool: pg.Pool;
  store: EventStore;
  runner: ProjectionRunner;
  /** Appends `{type, data}` events to a stream (expected revision: any) and waits until they are projected. */
  given(stream: string, events: readonly { type: string; data: unknown }[]): Promise<AppendResult>;
  /** Waits until the read models include `position` (default: the last append made through `given`, or the head). */
  settle(position?: string | null): Promise<void>;
  /** Drops the read models and replays the whole log; resolves once caught up. */
  rebuild(): Promise<void>;
  /**
   * Delivers every event of the streams again with its original revision,
   * newest first (so each older event also arrives late), straight to the
   * projectors' one writer in one transaction, twice: as the runner applies a
   * batch (each projector once on its share, in registration order), then one
   * event at a time (as it does after a failed batch). Revision guards must
   * leave every row as is.
   */
  redeliver(streams: readonly string[]): Promise<void>;
  /** Every row of a read-model table, in a stable order: what redelivery and rebuild tests compare. */
  selectAll(table: string, orderBy?: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/**
 * A real Postgres database, event store and projection runner for one test
 * file: read models are tested by appending events, exactly as in production.
 */
export async function createReadModelHarness(label: string, projectors: readonly Projector[], { batchSize = 100 }: { batchSize?: number } = {}): Promise<ReadModelHarness> {
  const db = await createTestDatabase(label);
  const pool = new pg.Pool({ connectionString: db.url, max: 8 });
  // DROP DATABASE … WITH (FORCE) at the end terminates idle connections: not an error here.
  pool.on('error', () => undefined);
  const store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
  await store.migrate();
  // The batch size of the live runner and of its rebuilds alike.
  const runner = new ProjectionRunner({ pool, store, projectors, batchSize, standbyRetryMs: 100 });
  await runner.migrate();
  await runner.start();

  let lastAppended: string | null = null;
  // The head is bounded by the cluster-wide snapshot xmin, which other test
  // databases' transactions hold back: wait for our own append's position.
  const settle = async (position?: string | null): Promise<void> => {
    const head = position ?? lastAppended ?? (await store.headPosition());
    if (head === null) return;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { rows } = await pool.query<{ position: string | null; rebuild_requested: boolean }>(
        'SELECT position, rebuild_requested FROM proj.checkpoints WHERE name = $1',
        [runner.name],
      );
      const row = rows[0];
      if (row && !row.rebuild_requested && row.position !== null && store.comparePositions(row.position, head) >= 0) return;
      if (Date.now() > deadline) throw new Error('read models did not catch up within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  return {
    db,
    pool,
    store,
    runner,
    async given(stream, events) {
      const result = await store.appendToStream(
        stream,
        events.map((event) => ({ id: randomUUID(), type: event.type, data: event.data, metadata: { userId: null, correlationId: randomUUID(), causationId: null } })),
        { expectedRevision: 'any' },
      );
      if (lastAppended === null || store.comparePositions(result.position, lastAppended) > 0) lastAppended = result.position;
      await settle(result.position);
      return result;
    },
    settle,
    async rebuild() {
      await runner.requestRebuild();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await settle();
    },
    async redeliver(streams) {
      const tx = await pool.connect();
      try {
        await tx.query('BEGIN');
        const events: RecordedEvent[] = [];
        for (const stream of streams) events.push(...(await store.readStream(stream)).reverse());
        for (const projector of projectors) {
          const share = events.filter((event) => projector.handles.includes(event.type));
          if (share.length > 0) await projector.apply(tx, share);
        }
        for (const event of events) {
          for (const projector of projectors) if (projector.handles.includes(event.type)) await projector.apply(tx, [event]);
        }
        await tx.query('COMMIT');
      } catch (error) {
        await tx.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        tx.release();
      }
    },
    async selectAll(table, orderBy = 'id') {
      return (await pool.query(`SELECT * FROM ${table} ORDER BY ${orderBy}`)).rows;
    },
    async close() {
      await runner.stop();
      await store.close();
      await pool.end();
      await db.drop();
    },
  };
}

/**
 * The harness of a test file's read models: created before its tests (a
 * database of its own), closed after them. Its methods may be taken at the
 * top of the file (`const { given } = useReadModelHarness(...)`) and called
 * once the tests run; `pool`, `store`, ... are read inside hooks and tests.
 */
export function useReadModelHarness(label: string, projectors: readonly Projector[]): ReadModelHarness {
  let harness: ReadModelHarness | undefined;
  beforeAll(async () => {
    harness = await createReadModelHarness(label, projectors);
  });
  afterAll(async () => harness?.close());
  const started = (): ReadModelHarness => {
    if (harness === undefined) throw new Error('the read-model harness is created in beforeAll: use it inside hooks and tests');
    return harness;
  };
  return {
    get db() {
      return started().db;
    },
    get pool() {
      return started().pool;
    },
    get store() {
      return started().store;
    },
    get runner() {
      return started().runner;
    },
    given: (stream, events) => started().given(stream, events),
    settle: (position) => started().settle(position),
    rebuild: () => started().rebuild(),
    redeliver: (streams) => started().redeliver(streams),
    selectAll: (table, orderBy) => started().selectAll(table, orderBy),
    close: () => started().close(),
  };
}

/**
 * Runs `change` (a redelivery, a rebuild) and expects `snapshot` to read the
 * same rows after it as before it.
 */
export async function expectSameRows(snapshot: () => Promise<unknown>, change: () => Promise<void>): Promise<void> {
  const before = await snapshot();
  await change();
  expect(await snapshot()).toEqual(before);
}

/**
 * Rows without their `version`: the same event appended again is a new
 * revision of its stream, so the fiche's version moves while what it shows
 * stays the same. Tests of "appended again changes nothing" compare this.
 */
export function withoutVersions<Row extends { version: number }>(rows: readonly Row[]): Omit<Row, 'version'>[] {
  return rows.map(({ version: _version, ...row }) => row);
}
