import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientEvent } from '@fsm/contracts';
import { agence, at } from '../../test-support/management-events.js';
import { expectSameRows, useReadModelHarness, withoutVersions } from '../../test-support/read-model-harness.js';
import { agencesProjector } from '../agences/agences-projector.js';
import { clientsProjector } from './clients-projector.js';
import { agenceHasClients, findClient, listClients, listClientsByAgence } from './clients-queries.js';

// The harness waits for each append's own position and replays through the real projectors.
const h = useReadModelHarness('rm_clients', [agencesProjector, clientsProjector]);
const { given, rebuild, redeliver } = h;

function client(id: string, nom: string, agenceId: string, ville = 'Lyon'): ClientEvent {
  return { type: 'ClientCreated', data: { clientId: id, nom, adresse: '2 rue des Lilas', ville, code_postal: '69002', agenceId, createdAt: at } };
}
function clientUpdated(id: string, nom: string, agenceId: string, ville = 'Lyon'): ClientEvent {
  return { type: 'ClientUpdated', data: { clientId: id, nom, adresse: '3 avenue Foch', ville, code_postal: '69003', agenceId, updatedAt: at } };
}

const table = () => h.selectAll('rm.clients');

describe('clients read model', () => {
  const lyon = randomUUID();
  const paris = randomUUID();
  const [acme, boulangerie, zeta, acmeParis, gone] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const streams = [acme, boulangerie, zeta, acmeParis, gone].map((id) => `client-${id}`);

  beforeAll(async () => {
    await given(`agence-${lyon}`, [agence(lyon, 'Lyon')]);
    await given(`agence-${paris}`, [agence(paris, 'Paris')]);
    await given(`client-${acme}`, [client(acme, 'ACME Sécurité', lyon)]);
    await given(`client-${boulangerie}`, [client(boulangerie, 'Boulangerie Martin', lyon)]);
    await given(`client-${zeta}`, [client(zeta, 'Zeta Industrie', lyon), clientUpdated(zeta, 'Zêta Industrie', paris, 'Paris')]);
    await given(`client-${acmeParis}`, [client(acmeParis, 'acme Paris', paris, 'Paris')]);
    await given(`client-${gone}`, [client(gone, 'Ancien client', lyon), { type: 'ClientDeleted', data: { clientId: gone, deletedAt: at } }]);
  });

  it('lists live clients in scope by name with their agency name', async () => {
    const all = await listClients(h.pool, [lyon, paris]);
    expect(all.total).toBe(4);
    expect(all.rows.map((row) => row.nom)).toEqual(['acme Paris', 'ACME Sécurité', 'Boulangerie Martin', 'Zêta Industrie']);
    expect(all.rows[3]).toEqual({ id: zeta, nom: 'Zêta Industrie', adresse: '3 avenue Foch', ville: 'Paris', code_postal: '69003', agence_id: paris, agence_nom: 'Paris', version: 1 });
    expect((await listClients(h.pool, [lyon])).rows.map((row) => row.id)).toEqual([acme, boulangerie]);
    expect((await listClients(h.pool, [])).rows).toEqual([]);
    expect((await listClients(h.pool, 'all')).rows.map((row) => row.id)).not.toContain(gone);
  });

  it('searches the name case-insensitively and paginates with the total', async () => {
    const found = await listClients(h.pool, [lyon, paris], { search: '  ACME ' });
    expect(found.rows.map((row) => row.id)).toEqual([acmeParis, acme]);
    expect((await listClients(h.pool, [lyon, paris], { search: '%' })).total).toBe(0);
    const page1 = await listClients(h.pool, [lyon, paris], { page: 1, pageSize: 3 });
    const page2 = await listClients(h.pool, [lyon, paris], { page: 2, pageSize: 3 });
    expect(page1).toMatchObject({ total: 4 });
    expect(page1.rows.map((row) => row.id)).toEqual([acmeParis, acme, boulangerie]);
    expect(page2).toEqual({ total: 4, rows: [expect.objectContaining({ id: zeta })] });
    expect((await listClients(h.pool, [lyon, paris], { page: 0 })).rows).toHaveLength(4);
    expect(await listClients(h.pool, [lyon], { search: 'acme', page: 1 })).toEqual({ total: 1, rows: [expect.objectContaining({ id: acme })] });
  });

  it('finds a client within scope, lists an agency, and tells whether an agency still has clients', async () => {
    expect(await findClient(h.pool, acme)).toMatchObject({ id: acme, agence_id: lyon, agence_nom: 'Lyon' });
    expect(await findClient(h.pool, acme, [paris])).toBeNull();
    expect(await findClient(h.pool, gone)).toBeNull();
    expect((await listClientsByAgence(h.pool, paris)).map((row) => row.id)).toEqual([acmeParis, zeta]);
    expect(await listClientsByAgence(h.pool, paris, [lyon])).toEqual([]);
    expect(await agenceHasClients(h.pool, lyon)).toBe(true);
    const empty = randomUUID();
    await given(`agence-${empty}`, [agence(empty, 'Vide')]);
    expect(await agenceHasClients(h.pool, empty)).toBe(false);
  });

  it('changes nothing when the same event is appended again or old events are delivered late', async () => {
    const before = await listClients(h.pool, 'all');
    await given(`client-${zeta}`, [clientUpdated(zeta, 'Zêta Industrie', paris, 'Paris')]);
    const after = await listClients(h.pool, 'all');
    expect(withoutVersions(after.rows)).toEqual(withoutVersions(before.rows));
    expect(after.rows.find((row) => row.id === zeta)?.version).toBe(2);
    await expectSameRows(table, () => redeliver(streams));
  });

  it('gives the same rows after a rebuild', () => expectSameRows(table, rebuild));
});
