import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoEmail, runDemoSeed } from '../src/seed/demo-seed.js';
import { demoSeedSteps } from '../src/seed/demo-steps.js';
import { ticketDemoStep } from '../src/seed/ticket-demo-step.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_tickets_demo_step');
});
afterAll(async () => h?.close());

async function demoUser(role: 'admin' | 'technicien'): Promise<TestUser> {
  const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: demoEmail(role), motdepasse: DEMO_PASSWORD } });
  expect(res.statusCode).toBe(200);
  const { token, user } = res.json();
  return { id: user.id, email: demoEmail(role), password: DEMO_PASSWORD, token, role, agenceId: user.agence_id };
}

type Listed = { id: string; statut: string; urgent: boolean; devis: number; numero_devis: string | null; source: string; interventions_supp_count: number; nom_rapport: string | null };

describe('ticket demo step', () => {
  it('runs last and creates tickets in every status through the API', async () => {
    expect(demoSeedSteps[demoSeedSteps.length - 1]).toBe(ticketDemoStep);
    expect(await runDemoSeed(h.app, h.deps, demoSeedSteps)).toBe(true);
    const tech = await demoUser('technicien');
    const open = (await h.request(tech, { method: 'GET', url: '/api/tickets' })).json().tickets as Listed[];
    const closed = (await h.request(tech, { method: 'GET', url: '/api/tickets/clos' })).json().tickets as Listed[];
    const all = [...open, ...closed];
    expect(all.length).toBeGreaterThanOrEqual(12);
    for (const statut of ['ouvert', 'en_cours', 'intervention', 'clos']) expect(all.some((t) => t.statut === statut), statut).toBe(true);
    expect(open.some((t) => t.urgent)).toBe(true);
    expect(closed.some((t) => t.urgent)).toBe(true);
    expect(closed.some((t) => t.devis === 0)).toBe(true);
    expect(closed.some((t) => t.devis === 1 && t.numero_devis !== null)).toBe(true);
    expect(closed.some((t) => t.devis === 1 && t.numero_devis === null)).toBe(true);
    expect(closed.some((t) => t.interventions_supp_count > 0 && t.nom_rapport !== null)).toBe(true);
    expect(open.some((t) => t.statut === 'intervention' && t.devis === 1)).toBe(true);
    // The management step sticks QR codes on equipment: the public request goes through the QR flow.
    expect(all.some((t) => t.source === 'public')).toBe(true);
    // The agency step gives the télésurveillance account the demo agency: it files one too.
    expect(all.some((t) => t.source === 'telesurveillance')).toBe(true);

    // Every demo ticket has its history, authored by demo users.
    const history = (await h.request(tech, { method: 'GET', url: `/api/tickets/${closed[0]!.id}/history` })).json();
    expect(history.events.length).toBeGreaterThanOrEqual(3);
    expect(history.events.every((e: { user_name: string | null }) => e.user_name !== null)).toBe(true);
  });
});
