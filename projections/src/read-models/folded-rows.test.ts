import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@fsm/eventstore/test-support';
import { writeRows, type FoldedTable } from './folded-rows.js';

type Row = { id: string; label: string | null; score: number | null; flag: boolean | null; at: string | null; level: number; last_revision: number };

const table: FoldedTable<Row> = {
  table: 'rm_test.folded',
  key: 'id',
  revision: 'last_revision',
  columns: { id: 'uuid', label: 'text', score: 'float8', flag: 'boolean', at: 'timestamptz', level: 'smallint', last_revision: 'int' },
};

let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase('folded-rows');
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  pool.on('error', () => undefined);
  await pool.query(`CREATE SCHEMA rm_test; CREATE TABLE rm_test.folded (id uuid PRIMARY KEY, label text, score float8, flag boolean, at timestamptz, level smallint NOT NULL, last_revision int NOT NULL)`);
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

async function write(rows: Row[]): Promise<void> {
  const client = await pool.connect();
  try {
    await writeRows(client, table, rows);
  } finally {
    client.release();
  }
}

async function stored(id: string) {
  const { rows } = await pool.query(`SELECT label, score::text AS score, flag, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, level, last_revision FROM rm_test.folded WHERE id = $1`, [id]);
  return rows[0];
}

describe('writeRows', () => {
  it('stores every cell as the fold held it: texts with quotes, backslashes, commas, braces, line breaks or reading NULL, floats JSON cannot spell, instants to the microsecond', async () => {
    const texts = ['a "quoted" word', 'back\\slash', 'comma, {brace}', 'NULL', 'line\nbreak\ttab', 'émoji 🔥 et accents', '', null];
    const floats = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.1 + 0.2, -2.5, null, 1e300, 3];
    const rows: Row[] = texts.map((label, index) => ({
      id: `00000000-0000-4000-8000-00000000000${index}`,
      label,
      score: floats[index] ?? null,
      flag: index % 3 === 0 ? true : index % 3 === 1 ? false : null,
      at: index === 7 ? null : `2026-03-29T0${index}:59:59.12345${index}Z`,
      level: index,
      last_revision: 1,
    }));
    await write(rows);
    for (const row of rows) {
      const back = await stored(row.id);
      expect(back.label).toBe(row.label);
      expect(back.score === null ? null : Number(back.score)).toBe(row.score);
      expect(back.flag).toBe(row.flag);
      expect(back.at).toBe(row.at);
      expect(back.level).toBe(row.level);
    }
  });

  it('replaces a stored row only from a later revision, and leaves the others alone', async () => {
    const id = '00000000-0000-4000-8000-0000000000aa';
    const base: Row = { id, label: 'first', score: 1, flag: true, at: null, level: 1, last_revision: 2 };
    await write([base]);
    await write([{ ...base, label: 'older', last_revision: 1 }]);
    expect((await stored(id)).label).toBe('first');
    await write([{ ...base, label: 'same', last_revision: 2 }]);
    expect((await stored(id)).label).toBe('first');
    await write([{ ...base, label: 'later', last_revision: 3 }]);
    expect((await stored(id)).label).toBe('later');
  });
});
