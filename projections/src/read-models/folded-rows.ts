import type { PoolClient } from 'pg';
import type { ReplayRows } from '../replay-rows.js';

/*
 * Read models written as whole rows folded in TypeScript: a projector loads
 * the stored rows its batch touches, applies each stream's events to its row
 * in log order (a pure function), and writes every changed row back with ONE
 * statement. A ticket whose events share a batch is then one row version, not
 * one per event: a rebuild replays millions of ticket events, and each row
 * version costs Postgres a heap tuple and an entry in every index.
 *
 * Values travel as text where JavaScript would round them: an instant is read
 * as ISO-8601 UTC with microseconds and written back as such, so a row that
 * goes through the fold keeps exactly the instant its event carried.
 */

type ColumnType = 'uuid' | 'text' | 'boolean' | 'smallint' | 'int' | 'float8' | 'timestamptz';

/** A column's value as the fold sees it: instants, uuids and texts as strings. */
export type Cell = string | number | boolean | null;

/** A read-model table written by a fold: its columns and their types, key first. */
export interface FoldedTable<Row extends { [column: string]: Cell }> {
  /** `rm.<table>`; the blue/green rebuild rewrites it to the shadow schema. */
  readonly table: string;
  readonly key: keyof Row & string;
  readonly columns: { readonly [Column in keyof Row]: ColumnType };
  /** The revision guard: a stored row at or past the written one is left alone (a redelivery). */
  readonly revision: keyof Row & string;
}

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

function selectList(columns: Record<string, ColumnType>): string {
  return Object.entries(columns)
    .map(([name, type]) => (type === 'timestamptz' ? `to_char(${name} AT TIME ZONE 'UTC', ${ISO_UTC}) AS ${name}` : name))
    .join(', ');
}

/** The stored rows of these keys, by key. */
async function loadRows<Row extends { [column: string]: Cell }>(tx: PoolClient, table: FoldedTable<Row>, keys: readonly string[]): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  if (keys.length === 0) return rows;
  const { rows: stored } = await tx.query<Row>(`SELECT ${selectList(table.columns)} FROM ${table.table} WHERE ${table.key} = ANY($1::uuid[])`, [keys]);
  for (const row of stored) rows.set(row[table.key] as string, row);
  return rows;
}

/**
 * Writes these rows in one statement: inserted, or replacing the stored row
 * when the stored one is at an earlier revision. Each column travels as one
 * array literal that `arrayLiteral` spells: pg builds the same text for an
 * array parameter, with type checks per element that cost a replay (millions
 * of cells) a tenth of its time in JavaScript. Measured and left: one JSON
 * text per column parsed by `json_array_elements_text` cut that time in Node
 * but cost Postgres more than it saved, and one JSON text of the whole batch
 * is a multi-megabyte string that V8 keeps until a full collection (+85 MB of
 * peak memory).
 */
export async function writeRows<Row extends { [column: string]: Cell }>(tx: PoolClient, table: FoldedTable<Row>, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(table.columns) as (keyof Row & string)[];
  const unnest = names.map((name, index) => `$${index + 1}::${table.columns[name]}[]`).join(', ');
  const updates = names.filter((name) => name !== table.key).map((name) => `${name} = EXCLUDED.${name}`);
  await tx.query(
    `INSERT INTO ${table.table} AS t (${names.join(', ')})
     SELECT * FROM unnest(${unnest})
     ON CONFLICT (${table.key}) DO UPDATE SET ${updates.join(', ')}
     WHERE t.${table.revision} < EXCLUDED.${table.revision}`,
    names.map((name) => arrayLiteral(rows, name)),
  );
}

const ARRAY_SPECIAL = /["\\]/;

/**
 * One column of the rows as a Postgres array literal, `{"a","b\"c",NULL,"1.5"}`.
 * Every element is quoted, so a text that reads `NULL` or holds a comma or a
 * brace stays that text; a number or a boolean is spelled as JavaScript prints
 * it (NaN and Infinity included), which the column's type reads back.
 */
function arrayLiteral<Row extends { [column: string]: Cell }>(rows: readonly Row[], name: keyof Row & string): string {
  const elements = new Array<string>(rows.length);
  for (let index = 0; index < rows.length; index++) {
    const value = rows[index]![name];
    if (value === null || value === undefined) elements[index] = 'NULL';
    else if (typeof value !== 'string') elements[index] = `"${String(value)}"`;
    else elements[index] = ARRAY_SPECIAL.test(value) ? `"${value.replace(/[\\"]/g, '\\$&')}"` : `"${value}"`;
  }
  return `{${elements.join(',')}}`;
}

/** A row the fold changed: as stored before the batch (null: new), and after it. */
export interface FoldedRow<Row> {
  before: Row | null;
  after: Row;
}

/** A fold's options: the replay's cache, and what becomes of the folded rows before they are written. */
export interface FoldOptions<Row> {
  cache?: ReplayRows | undefined;
  /** The rows to write, from the folded ones (default: each one's `after`), e.g. with figures computed from them. */
  finish?: (rows: Map<string, FoldedRow<Row>>) => Promise<Row[]> | Row[];
}

/**
 * Folds each stream's events onto its row, in log order, and writes every
 * changed row back in one statement (`writeRows`): `evolve` returns the row
 * after one event (the same object when the event changes nothing; null
 * while there is no row, e.g. an event before its stream's opening). An event
 * at or below the row's revision was applied already (a redelivery) and is
 * skipped. The rows come from the replay's cache when given, else from the
 * table. Returns the changed rows by key (as stored before, and after), and
 * the rows written (`finish`'s).
 */
export async function foldAndWrite<Row extends { [column: string]: Cell }, Event>(
  tx: PoolClient,
  table: FoldedTable<Row>,
  events: readonly Event[],
  keyOf: (event: Event) => string,
  revisionOf: (event: Event) => number,
  evolve: (row: Row | null, event: Event) => Row | null,
  { cache, finish }: FoldOptions<Row> = {},
): Promise<{ rows: Map<string, FoldedRow<Row>>; written: Row[] }> {
  const fold = async (stored: Map<string, Row>) => {
    const rows = new Map<string, FoldedRow<Row>>();
    for (const event of events) {
      const key = keyOf(event);
      const row = rows.get(key)?.after ?? stored.get(key) ?? null;
      if (row !== null && revisionOf(event) <= (row[table.revision] as number)) continue;
      const next = evolve(row, event);
      if (next !== null && next !== row) rows.set(key, { before: stored.get(key) ?? null, after: next });
    }
    return { rows, written: finish ? await finish(rows) : [...rows.values()].map((row) => row.after) };
  };
  const folded = cache
    ? await cache.inTurn(table.table, async (cached) => {
        const stored = new Map<string, Row>();
        const missing: string[] = [];
        const seen = new Set<string>();
        for (const event of events) {
          const key = keyOf(event);
          if (seen.has(key)) continue;
          seen.add(key);
          const row = cached.get(key) as Row | undefined;
          if (row !== undefined) stored.set(key, row);
          // A stream whose first event is here has no row yet.
          else if (revisionOf(event) > 0) missing.push(key);
        }
        for (const [key, row] of await loadRows(tx, table, missing)) stored.set(key, row);
        const result = await fold(stored);
        cached.keep(new Map(result.written.map((row) => [row[table.key] as string, row])));
        return result;
      })
    : await fold(await loadRows(tx, table, [...new Set(events.map(keyOf))]));
  await writeRows(tx, table, folded.written);
  return folded;
}

/**
 * An instant's microseconds since the epoch, for comparing instants held as
 * text (ISO-8601 from an event, with any offset, or as `loadRows` reads
 * them) without rounding to the millisecond as a Date would.
 */
export function instantMicros(text: string): number {
  const fraction = /T\d{2}:\d{2}(?::\d{2})?\.(\d+)/.exec(text)?.[1] ?? '';
  return Date.parse(text) * 1000 + Number(fraction.padEnd(6, '0').slice(3, 6));
}
