import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetierEvent } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { createReadModelHarness, withoutVersions, type ReadModelHarness } from '../../test-support/read-model-harness.js';
import { metiersProjector } from './metiers-projector.js';
import { findMetier, listMetiers } from './metiers-queries.js';

const projectors: Projector[] = [metiersProjector];
let h: ReadModelHarness;
beforeAll(async () => {
  h = await createReadModelHarness('rm_metiers', projectors);
  // close() drops the database WITH (FORCE) before the ended pool's sockets are closed: their FATAL is expected, not a failure.
  h.pool.on('error', () => undefined);
});
afterAll(async () => h?.close());

const at = '2026-11-20T08:00:00.000Z';

function metier(id: string, nom: string, ordre: number | null, delai_inter: number | null = null, HO_stats: 0 | 1 = 0, type: 'MetierCreated' | 'MetierUpdated' = 'MetierCreated'): MetierEvent {
  const facts = { metierId: id, nom, ordre, delai_inter, HO_stats };
  return type === 'MetierCreated' ? { type, data: { ...facts, createdAt: at } } : { type, data: { ...facts, updatedAt: at } };
}

// The harness waits for each append's own position and replays through the real projectors.
const given = async (stream: string, events: readonly { type: string; data: unknown }[]): Promise<void> => {
  await h.given(stream, events);
};
const rebuild = (): Promise<void> => h.rebuild();
const redeliver = (streams: readonly string[]): Promise<void> => h.redeliver(streams);

const table = async () => (await h.pool.query('SELECT * FROM rm.metiers ORDER BY id')).rows;

describe('metiers read model', () => {
  const [ssi, extincteurs, electricite, desenfumage, alarme, gone] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    await given('metiers-catalogue', [
      metier(ssi, 'SSI', 2, 4, 1),
      metier(extincteurs, 'Extincteurs', null),
      metier(electricite, 'Électricité', null, 8),
      metier(desenfumage, 'Désenfumage', null),
      metier(alarme, 'Alarme', 1),
      metier(gone, 'Plomberie', 3),
      { type: 'MetierDeleted', data: { metierId: gone, deletedAt: at } },
    ]);
  });

  it('lists live trades by ordre, unnumbered last, then by name in French order', async () => {
    const rows = await listMetiers(h.pool);
    expect(rows.map((row) => row.nom)).toEqual(['Alarme', 'SSI', 'Désenfumage', 'Électricité', 'Extincteurs']);
    // One stream for the catalogue: a trade's version is the revision of the last event that touched it.
    expect(rows[1]).toEqual({ id: ssi, nom: 'SSI', ordre: 2, delai_inter: 4, HO_stats: 1, version: 0 });
    expect(await findMetier(h.pool, electricite)).toEqual({ id: electricite, nom: 'Électricité', ordre: null, delai_inter: 8, HO_stats: 0, version: 2 });
    expect(await findMetier(h.pool, gone)).toBeNull();
  });

  it('applies updates (the HO_stats toggle) and reorders', async () => {
    await given('metiers-catalogue', [
      metier(ssi, 'SSI', 2, 4, 0, 'MetierUpdated'),
      { type: 'MetiersReordered', data: { items: [{ metierId: ssi, ordre: 1 }, { metierId: alarme, ordre: 2 }, { metierId: extincteurs, ordre: 3 }], reorderedAt: at } },
    ]);
    const rows = await listMetiers(h.pool);
    expect(rows.map((row) => [row.nom, row.ordre])).toEqual([
      ['SSI', 1],
      ['Alarme', 2],
      ['Extincteurs', 3],
      ['Désenfumage', null],
      ['Électricité', null],
    ]);
    expect(rows[0]?.HO_stats).toBe(0);
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    const before = await listMetiers(h.pool);
    await given('metiers-catalogue', [
      { type: 'MetiersReordered', data: { items: [{ metierId: ssi, ordre: 1 }, { metierId: alarme, ordre: 2 }, { metierId: extincteurs, ordre: 3 }], reorderedAt: at } },
    ]);
    const after = await listMetiers(h.pool);
    expect(withoutVersions(after)).toEqual(withoutVersions(before));
    // The trades the event names moved to its revision; the others kept theirs.
    const moved = new Set<string>([ssi, alarme, extincteurs]);
    const revision = Math.max(...after.map((row) => row.version));
    for (const row of after) expect(row.version, row.nom).toBe(moved.has(row.id) ? revision : before.find((b) => b.id === row.id)?.version);
    const rows = await table();
    await redeliver(['metiers-catalogue']);
    expect(await table()).toEqual(rows);
  });

  it('gives the same rows after a rebuild', async () => {
    const before = await table();
    await rebuild();
    expect(await table()).toEqual(before);
  });
});
