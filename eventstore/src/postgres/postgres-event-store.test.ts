import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closedAfterEach, newEvent, range, streamIn, uniqueCategory, waitFor } from '../contract/test-helpers.js';
import { ConcurrencyError } from '../errors.js';
import { createTestDatabase, type TestDatabase } from '../test-support/pg-database.js';
import { createPostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.js';
import { appendStatement, type AppendRow } from './append-statement.js';
import { parsePostgresPosition } from './positions.js';

/** What only the Postgres adapter promises, beyond the shared contract. */
describe('postgres event store', () => {
  let database: TestDatabase;
  let admin: pg.Pool;
  const { keep, follow } = closedAfterEach();
  const open = (options: PostgresEventStoreOptions = {}) => keep(createPostgresEventStore({ connectionString: database.url, ...options }));

  beforeAll(async () => {
    database = await createTestDatabase('eventstore_postgres');
    admin = new pg.Pool({ connectionString: database.url, max: 2 });
    const migrator = createPostgresEventStore({ connectionString: database.url });
    await migrator.migrate();
    await migrator.close();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  test('migrate is idempotent and safe to run from several processes at once', async () => {
    const racers = range(6).map(() => open({ schema: 'es_parallel' }));
    await Promise.all(racers.map((store) => store.migrate()));
    await Promise.all(racers.map((store) => store.migrate()));
    const tables = await admin.query<{ name: string | null }>(
      `SELECT to_regclass('es_parallel.streams')::text AS name UNION ALL SELECT to_regclass('es_parallel.events')::text`,
    );
    expect(tables.rows.map((row) => row.name)).toEqual(['es_parallel.streams', 'es_parallel.events']);
    const store = racers[0]!;
    const result = await store.appendToStream(streamIn('migrated'), [newEvent('Works')], { expectedRevision: 'no_stream' });
    expect(result.nextExpectedRevision).toBe(0);
    // Another schema is another store: the default one does not see this event.
    const other = open();
    const slice = await other.readAll({ filter: { categories: ['migrated'] } });
    expect(slice.events).toEqual([]);
  });

  test('a position is the writing transaction id and the global position, each padded to 20 digits', async () => {
    const store = open();
    const event = newEvent('Positioned');
    const result = await store.appendToStream(streamIn(uniqueCategory('pos')), [event], { expectedRevision: 'no_stream' });
    expect(result.position).toMatch(/^\d{20}-\d{20}$/);
    const row = (
      await admin.query<{ transaction_id: string; global_position: string }>(
        'SELECT transaction_id::text, global_position::text FROM es.events WHERE event_id = $1',
        [event.id],
      )
    ).rows[0];
    expect(parsePostgresPosition(result.position)).toEqual({ transactionId: row?.transaction_id, globalPosition: row?.global_position });
  });

  test('the same event ids elsewhere are a conflict, never a second copy', async () => {
    const store = open();
    const category = uniqueCategory('dup');
    const stream = streamIn(category);
    const [a, b] = [newEvent('A'), newEvent('B')];
    const first = await store.appendToStream(stream, [a, b], { expectedRevision: 'no_stream' });
    await store.appendToStream(stream, [newEvent('C')], { expectedRevision: 1 });

    // Where the stream is now (revision 2) they would be new copies at 3 and 4.
    await expect(store.appendToStream(stream, [a, b], { expectedRevision: 2 })).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.appendToStream(stream, [b, a], { expectedRevision: 'any' })).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.appendToStream(streamIn(category), [a], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(ConcurrencyError);
    // 'any' with the ids where they already are is a retry.
    expect(await store.appendToStream(stream, [a, b], { expectedRevision: 'any' })).toEqual(first);
    expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['A', 'B', 'C']);
  });

  test("concurrent 'any' appends to one stream reach subscribers in stream order", async () => {
    // A blind `version = version + n` that waited on another writer's row lock
    // would commit after it with an older transaction id, and subscribers
    // (ordered by transaction id) would see the stream out of order.
    const writers = [open(), open()];
    const category = uniqueCategory('anyorder');
    const stream = streamIn(category);
    const start = await writers[0]!.headPosition();
    for (let round = 0; round < 20; round++) {
      const results = await Promise.all(
        range(8).map((racer) => writers[racer % 2]!.appendToStream(stream, [newEvent('Any', { round, racer })], { expectedRevision: 'any' })),
      );
      expect(new Set(results.map((result) => result.nextExpectedRevision)).size).toBe(8);
    }
    const collector = follow(writers[0]!, { from: start, filter: { categories: [category] }, batchSize: 50 });
    await waitFor(() => collector.events.length >= 160, { message: '160 events' });
    expect(collector.events.map((event) => event.revision)).toEqual(range(160));
  });

  test('another process is woken by the NOTIFY after commit, and again once its LISTEN connection was cut and restored', async () => {
    const writer = open();
    // The subscriber polls once a minute: only the NOTIFY can bring it each event within the wait below.
    const subscriber = open({ applicationName: 'notify-test', pollIntervalMs: 60_000, retryDelayMs: 50 });
    const category = uniqueCategory('notify');
    const stream = streamIn(category);
    const collector = follow(subscriber, { from: await writer.headPosition(), filter: { categories: [category] } });
    await waitFor(() => collector.caughtUpCount > 0, { message: 'caught up' });
    const listenPid = await waitFor(async () => (await listenBackends('notify-test:listen'))[0], { message: 'LISTEN connection' });

    await writer.appendToStream(stream, [newEvent('First')], { expectedRevision: 'no_stream' });
    await waitFor(() => collector.events.length === 1, { timeoutMs: 15_000, message: 'the first event through NOTIFY' });

    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'notify-test%'`);
    await waitFor(async () => (await listenBackends('notify-test:listen')).some((pid) => pid !== listenPid), { message: 'LISTEN again' });
    await writer.appendToStream(stream, [newEvent('Second')], { expectedRevision: 0 });
    await waitFor(() => collector.events.length === 2, { timeoutMs: 15_000, message: 'the second event through NOTIFY' });
    expect(collector.events.map((event) => event.type)).toEqual(['First', 'Second']);
  });

  test('the append function never NOTIFYs inside the append transaction', async () => {
    const source = await admin.query<{ body: string }>(
      `SELECT prosrc AS body FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'es' AND p.proname IN ('append_to_stream', 'stored_append')`,
    );
    expect(source.rows).toHaveLength(2);
    for (const row of source.rows) expect(row.body.toLowerCase()).not.toMatch(/notify/);
  });

  async function listenBackends(applicationName: string): Promise<number[]> {
    const result = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`,
      [applicationName],
    );
    return result.rows.map((row) => row.pid);
  }

  test('the append refuses to run in a transaction that took its id before the stream’s previous event was written, and a first-write append still works', async () => {
    const store = open();
    const category = uniqueCategory('first');
    const stream = streamIn(category);
    const early = new pg.Client({ connectionString: database.url, application_name: 'append-after-write' });
    early.on('error', () => undefined);
    await early.connect();
    try {
      await early.query('BEGIN');
      // Any earlier write gives the transaction its id; this is the bare form of one.
      await early.query('SELECT pg_current_xact_id()');
      await store.appendToStream(stream, [newEvent('Opened')], { expectedRevision: 'no_stream' });

      const late = appendStatement('es', stream, [newEvent('Late')], 'any');
      const refused = await early.query(late.text, late.values).then(
        () => null,
        (error: { code?: string; message: string }) => error,
      );
      expect(refused?.code).toBe('55000');
      expect(refused?.message).toMatch(/took its id before revision 0 of/);
      await early.query('ROLLBACK');

      // The same append as the first write of its transaction goes through, in stream order.
      await early.query('BEGIN');
      const row = (await early.query<AppendRow>(late.text, late.values)).rows[0];
      expect(row?.out_status).toBe('ok');
      await early.query('COMMIT');
    } finally {
      await early.end();
    }
    expect((await store.readStream(stream)).map((event) => event.type)).toEqual(['Opened', 'Late']);
    const slice = await store.readAll({ filter: { categories: [category] } });
    expect(slice.events.map((event) => event.revision)).toEqual([0, 1]);
  });

  test('several appends in one transaction are allowed while no newer transaction wrote to their streams in between', async () => {
    const store = open();
    const category = uniqueCategory('multi');
    const [first, second] = [streamIn(category), streamIn(category)];
    await store.appendToStream(second, [newEvent('Opened')], { expectedRevision: 'no_stream' });
    const client = await admin.connect();
    try {
      await client.query('BEGIN');
      for (const [stream, expected] of [[first, 'no_stream'], [second, 0]] as const) {
        const statement = appendStatement('es', stream, [newEvent('Batched')], expected);
        expect((await client.query<AppendRow>(statement.text, statement.values)).rows[0]?.out_status).toBe('ok');
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const slice = await store.readAll({ filter: { categories: [category] } });
    expect(slice.events.map((event) => [event.streamId, event.revision])).toEqual([
      [second, 0],
      [first, 0],
      [second, 1],
    ]);
  });
});
