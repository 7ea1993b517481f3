import type pg from 'pg';

/** Every read-model table, each row as JSON, rows sorted (as command-api/test/rebuild-demo.test.ts compares them). */
export async function snapshotReadModels(pool: pg.Pool): Promise<Record<string, string[]>> {
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'rm' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const result: Record<string, string[]> = {};
  for (const { table_name } of tables) {
    const { rows } = await pool.query(`SELECT * FROM rm.${table_name}`);
    result[table_name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return result;
}

/** Row-by-row differences between two snapshots (empty when equal), a few per table. */
export function snapshotDifferences(before: Record<string, string[]>, after: Record<string, string[]>, perTable = 3): string[] {
  const differences: string[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[table];
    const b = after[table];
    if (!a || !b) {
      differences.push(`${table}: only in ${a ? 'the first' : 'the second'} snapshot`);
      continue;
    }
    const inB = new Set(b);
    const inA = new Set(a);
    const missing = a.filter((row) => !inB.has(row));
    const extra = b.filter((row) => !inA.has(row));
    if (a.length !== b.length) differences.push(`${table}: ${a.length} rows vs ${b.length}`);
    for (const row of missing.slice(0, perTable)) differences.push(`${table} - ${row}`);
    for (const row of extra.slice(0, perTable)) differences.push(`${table} + ${row}`);
  }
  return differences;
}
