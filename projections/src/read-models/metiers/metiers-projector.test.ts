import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { at, metier } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { metiersProjector } from './metiers-projector.js';
import { findMetier, listMetiers } from './metiers-queries.js';

// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_metiers', [metiersProjector]);
const { given, rebuild, redeliver } = h;

const table = () => h.selectAll('rm.metiers');

describe('metiers read model', () => {
  const [ssi, extincteurs, electricite, desenfumage, alarme, gone] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    await given('metiers-catalogue', [
      metier(ssi, 'SSI', { ordre: 2, delai_inter: 4, HO_stats: 1 }),
      metier(extincteurs, 'Extincteurs'),
      metier(electricite, 'Électricité', { delai_inter: 8 }),
      metier(desenfumage, 'Désenfumage'),
      metier(alarme, 'Alarme', { ordre: 1 }),
      metier(gone, 'Plomberie', { ordre: 3 }),
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
      metier(ssi, 'SSI', { ordre: 2, delai_inter: 4, HO_stats: 0 }, 'MetierUpdated'),
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
    await expectSameRows(table, () => redeliver(['metiers-catalogue']));
  });

  it('gives the same rows after a rebuild', () => expectSameRows(table, rebuild));
});
