import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectionRunner, RUNNER_SCHEMA, readModelProjectors } from '@fsm/projections';
import { DEMO_PASSWORD, demoEmail, runDemoSeed } from '../src/seed/demo-seed.js';
import { managementDemoStep } from '../src/seed/management-demo-step.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_mgmt_demo_step');
});
afterAll(async () => h?.close());

async function demoUser(role: 'admin_plus' | 'technicien'): Promise<TestUser> {
  const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: demoEmail(role), motdepasse: DEMO_PASSWORD } });
  expect(res.statusCode).toBe(200);
  const { token, user } = res.json();
  return { id: user.id, email: demoEmail(role), password: DEMO_PASSWORD, token, role, agenceId: user.agence_id };
}

describe('management demo step', () => {
  it('creates trades, clients with sites, installations and contacts, and QR codes through the API', async () => {
    expect(await runDemoSeed(h.app, h.deps, [managementDemoStep])).toBe(true);
    const admin = await demoUser('admin_plus');
    const tech = await demoUser('technicien');
    const get = async (user: TestUser, url: string) => {
      const res = await h.request(user, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      return res.json();
    };

    const metiers = await get(tech, '/api/metiers');
    expect(metiers.map((m: { nom: string }) => m.nom)).toEqual(['Extincteurs', 'Alarme incendie', 'Désenfumage', 'RIA', 'Éclairage de sécurité']);
    expect(metiers[1]).toMatchObject({ delai_inter: 4, HO_stats: 1 });

    // The technician of the demo agency sees the same clients as the admin.
    const clients = await get(tech, '/api/clients');
    expect(clients).toHaveLength(5);
    expect(clients.every((c: { agence_id: string }) => c.agence_id === admin.agenceId)).toBe(true);

    let installations = 0;
    let astreinte = 0;
    let contacts = 0;
    for (const client of clients as { id: string }[]) {
      const sites = await get(admin, `/api/clients/${client.id}/sites`);
      expect(sites.length).toBeGreaterThan(0);
      for (const site of sites as { installations: { astreinte: number }[] }[]) {
        installations += site.installations.length;
        astreinte += site.installations.filter((i) => i.astreinte === 1).length;
      }
      contacts += (await get(admin, `/api/interlocuteurs/client/${client.id}`)).length;
    }
    expect(installations).toBeGreaterThanOrEqual(10);
    expect(astreinte).toBeGreaterThanOrEqual(3);
    expect(contacts).toBeGreaterThanOrEqual(5);

    expect(await get(admin, '/api/qrcodes/unused-count')).toEqual({ unused: 6 });
  });

  it('gives identical reference tables after a rebuild from the log (npm run rebuild)', async () => {
    const tables = ['clients', 'sites', 'installations', 'interlocuteurs', 'interlocuteur_affectations', 'qrcodes', 'metiers'];
    const snapshot = async () =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (table) => {
            const { rows } = await h.pool.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM rm.${table} t ORDER BY 1`);
            return [table, rows.map((r) => r.row)] as const;
          }),
        ),
      );
    const tableOid = async () => (await h.pool.query<{ oid: number }>(`SELECT 'rm.clients'::regclass::oid AS oid`)).rows[0]?.oid;
    const oidBefore = await tableOid();
    const before = await snapshot();
    expect(before.clients).toHaveLength(5);
    const requester = new ProjectionRunner({ pool: h.pool, store: h.store, projectors: readModelProjectors });
    await requester.requestRebuild();
    const head = await h.store.headPosition();
    await expect
      .poll(
        async () => {
          const { rows } = await h.pool.query<{ position: string | null; rebuild_requested: boolean }>(
            `SELECT position, rebuild_requested FROM ${RUNNER_SCHEMA}.checkpoints WHERE name = $1`,
            [requester.name],
          );
          const row = rows[0];
          return Boolean(row && !row.rebuild_requested && row.position !== null && head !== null && h.store.comparePositions(row.position, head) >= 0);
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe(true);
    // The tables were dropped and replayed, not left as they were.
    expect(await tableOid()).not.toBe(oidBefore);
    expect(await snapshot()).toEqual(before);
  });
});
