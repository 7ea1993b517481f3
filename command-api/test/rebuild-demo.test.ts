import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemoSeed } from '../src/seed/demo-seed.js';
import { demoSeedSteps } from '../src/seed/demo-steps.js';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_rebuild_demo');
  await runDemoSeed(h.app, h.deps, demoSeedSteps);
}, 120_000);
afterAll(async () => h?.close());

/** Every read-model table, rows in a stable order. */
async function snapshot(): Promise<Record<string, unknown[]>> {
  const { rows: tables } = await h.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'rm' ORDER BY table_name`,
  );
  const result: Record<string, unknown[]> = {};
  for (const { table_name } of tables) {
    const { rows } = await h.pool.query(`SELECT * FROM rm.${table_name}`);
    result[table_name] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return result;
}

describe('npm run rebuild', () => {
  it('gives identical read models after the whole demo data set', async () => {
    const before = await snapshot();
    // The seed touched every area: a meaningful comparison needs rows everywhere that matters.
    for (const table of ['agences', 'users', 'clients', 'sites', 'installations', 'interlocuteurs', 'qrcodes', 'metiers', 'templates', 'tickets', 'ticket_interventions']) {
      expect(before[table]?.length ?? 0, table).toBeGreaterThan(0);
    }
    const head = await h.store.headPosition();
    await h.pool.query('UPDATE proj.checkpoints SET rebuild_requested = true');
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await h.pool.query<{ position: string | null; rebuild_requested: boolean }>('SELECT position, rebuild_requested FROM proj.checkpoints');
      const done = rows.every((row) => !row.rebuild_requested && row.position !== null && h.store.comparePositions(row.position, head!) >= 0);
      if (done) break;
      if (Date.now() > deadline) throw new Error('rebuild did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
