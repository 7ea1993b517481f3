import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/pg-database.js';
import type { NewEvent, RecordedEvent } from '../port.js';
import { createPostgresEventStore, formatPostgresPosition, type PostgresEventStore } from './index.js';
import { RebaseRefusedError, rebasePositions } from './rebase-positions.js';

/*
 * The re-base on its own (the move between servers is in
 * faults/restore.faults.test.ts): how stored positions that are not exactly an
 * event's map, that a second run changes nothing, and that it refuses (and
 * changes nothing) while a role is connected or a stored position is not one.
 */

let db: TestDatabase;
let pool: pg.Pool;

const event = (type: string): NewEvent => ({ id: randomUUID(), type, data: {} });

async function withStore<T>(work: (store: PostgresEventStore) => Promise<T>): Promise<T> {
  const store = createPostgresEventStore({ connectionString: db.url, notify: false });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function readWholeLog(store: PostgresEventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let from: string | null = null;
  for (;;) {
    const slice = await store.readAll({ from, maxCount: 100 });
    events.push(...slice.events);
    if (slice.caughtUp) return events;
    from = slice.checkpoint;
  }
}

/** The whole log once `count` events are readable: on the shared server another test's open transaction may hold readers back a moment. */
async function readAtLeast(store: PostgresEventStore, count: number): Promise<RecordedEvent[]> {
  for (let attempt = 0; ; attempt++) {
    const events = await readWholeLog(store);
    if (events.length >= count || attempt >= 600) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function storedRows(): Promise<unknown[]> {
  const { rows } = await pool.query(
    `SELECT e.transaction_id::text, e.global_position::text, e.event_id FROM es.events e ORDER BY 1, 2`,
  );
  return [...rows, ...(await pool.query('SELECT * FROM side.checkpoints ORDER BY name')).rows];
}

let original: RecordedEvent[];

beforeAll(async () => {
  db = await createTestDatabase('rebase');
  await withStore(async (store) => {
    await store.migrate();
    await store.appendToStream('alpha-1', [event('A'), event('B')], { expectedRevision: 'no_stream' });
    await store.appendToStream('beta-1', [event('C')], { expectedRevision: 'no_stream' });
    original = await readAtLeast(store, 3);
  });
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
  const [first, , third] = original;
  const firstParts = first!.position.split('-');
  await pool.query('CREATE SCHEMA side');
  await pool.query('CREATE TABLE side.checkpoints (name text PRIMARY KEY, position text, reader_positions jsonb)');
  await pool.query(`INSERT INTO side.checkpoints VALUES ($1, $2, $3), ($4, $5, $6), ($7, NULL, NULL)`, [
    'exact',
    third!.position,
    JSON.stringify({ before: formatPostgresPosition('1', '0'), after: formatPostgresPosition('999999999', '0') }),
    // Past the first transaction's events but before the next transaction: the last event of the first one.
    'between',
    formatPostgresPosition(firstParts[0]!, '999999'),
    JSON.stringify({}),
    'never-ran',
  ]);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

describe('rebasePositions', () => {
  it('refuses while another session is connected, and changes nothing', async () => {
    const before = await storedRows();
    const role = new pg.Client({ connectionString: db.url, application_name: 'role-en-marche' });
    await role.connect();
    try {
      await expect(rebasePositions(pool)).rejects.toThrow(/role-en-marche \(pid \d+\)/);
      await expect(rebasePositions(pool)).rejects.toBeInstanceOf(RebaseRefusedError);
    } finally {
      await role.end();
    }
    expect(await storedRows()).toEqual(before);
  });

  it('refuses a stored value that is not a position, and changes nothing', async () => {
    const before = await storedRows();
    await pool.query(`INSERT INTO side.checkpoints VALUES ('typo', 'not-a-position', NULL)`);
    await expect(rebasePositions(pool)).rejects.toThrow(/side\.checkpoints\.position contient "not-a-position"/);
    await pool.query(`DELETE FROM side.checkpoints WHERE name = 'typo'`);
    expect(await storedRows()).toEqual(before);
  });

  it('maps every stored position to the last event at or before it, keeps the read order, and a second run changes nothing', async () => {
    const result = await rebasePositions(pool);
    expect(result).toEqual({
      events: 3,
      eventsRenumbered: 3,
      positionsChanged: { 'side.checkpoints.position': 2, 'side.checkpoints.reader_positions': 1 },
    });
    const at = (n: number) => formatPostgresPosition('3', String(n));
    const { rows } = await pool.query('SELECT name, position, reader_positions FROM side.checkpoints ORDER BY name');
    expect(rows).toEqual([
      { name: 'between', position: at(2), reader_positions: {} },
      { name: 'exact', position: at(3), reader_positions: { before: at(0), after: at(3) } },
      { name: 'never-ran', position: null, reader_positions: null },
    ]);

    const once = await storedRows();
    expect(await rebasePositions(pool)).toEqual({
      events: 3,
      eventsRenumbered: 0,
      positionsChanged: { 'side.checkpoints.position': 0, 'side.checkpoints.reader_positions': 0 },
    });
    expect(await storedRows()).toEqual(once);

    // Appends continue after the re-based events; a reader from a mapped checkpoint resumes there.
    await pool.end();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
    await withStore(async (store) => {
      const appended = event('D');
      await store.appendToStream('alpha-1', [appended], { expectedRevision: 1 });
      const log = await readAtLeast(store, 4);
      expect(log.map((e) => e.id)).toEqual([...original.map((e) => e.id), appended.id]);
      expect(log.slice(0, 3).map((e) => e.position)).toEqual([at(1), at(2), at(3)]);
      const resumed = await store.readAll({ from: at(2) });
      expect(resumed.events.map((e) => e.id)).toEqual([original[2]!.id, appended.id]);
    });
  });
});

describe('rebasePositions on a database without a Postgres event log', () => {
  it('refuses, saying there is nothing to re-base', async () => {
    const empty = await createTestDatabase('rebase-empty');
    const emptyPool = new pg.Pool({ connectionString: empty.url, max: 1 });
    try {
      await expect(rebasePositions(emptyPool)).rejects.toThrow(/aucun journal d'événements dans le schéma es/);
    } finally {
      await emptyPool.end();
      await empty.drop();
    }
  });
});
