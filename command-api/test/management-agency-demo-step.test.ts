import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAgenceHoraires } from '@fsm/contracts';
import { DEMO_SECOND_AGENCE_ADMIN_EMAIL, DEMO_TEMPLATE_NAME, agencyDemoStep } from '../src/seed/agency-demo-step.js';
import { DEMO_PASSWORD, demoEmail, runDemoSeed } from '../src/seed/demo-seed.js';
import { demoSeedSteps } from '../src/seed/demo-steps.js';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_mgmt_agency_demo');
});
afterAll(async () => h?.close());

async function signIn(email: string) {
  const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email, motdepasse: DEMO_PASSWORD } });
  expect(res.statusCode, email).toBe(200);
  const { token, user } = res.json();
  return { id: user.id as string, email, password: DEMO_PASSWORD, token: token as string, role: user.role, agenceId: user.agence_id as string | null };
}

describe('agency demo step', () => {
  it('comes first among the demo steps', () => {
    expect(demoSeedSteps[0]).toBe(agencyDemoStep);
  });

  it('seeds two agencies, an admin for the second, the télésurveillance account on both and an assigned report template', async () => {
    expect(await runDemoSeed(h.app, h.deps, [agencyDemoStep])).toBe(true);
    const adminPlus = await signIn(demoEmail('admin_plus'));
    const agences = (await h.request(adminPlus, { method: 'GET', url: '/api/agences' })).json() as { id: string; nom: string; id_template: string | null }[];
    expect(agences.map((a) => a.nom).sort()).toEqual(['Agence Lyon Centre', 'Agence Villeurbanne']);
    const demo = agences.find((a) => a.nom === 'Agence Lyon Centre')!;
    const villeurbanne = agences.find((a) => a.nom === 'Agence Villeurbanne')!;

    expect((await h.request(adminPlus, { method: 'GET', url: `/api/agences/${demo.id}/horaires` })).json()).toEqual(defaultAgenceHoraires());

    const secondAdmin = await signIn(DEMO_SECOND_AGENCE_ADMIN_EMAIL);
    expect(secondAdmin).toMatchObject({ role: 'admin', agenceId: villeurbanne.id });

    const telesurv = await signIn(demoEmail('telesurveillance'));
    const assigned = (await h.request(telesurv, { method: 'GET', url: '/api/telesurv/me/agences' })).json() as { id: string }[];
    expect(assigned.map((a) => a.id).sort()).toEqual([demo.id, villeurbanne.id].sort());

    const templates = (await h.request(adminPlus, { method: 'GET', url: '/api/templates' })).json() as { id: string; name: string; content_html: string }[];
    expect(templates).toHaveLength(1);
    const [template] = templates;
    expect(template).toMatchObject({ name: DEMO_TEMPLATE_NAME });
    // The ticket's number is the letterhead's, above every template (issue 18).
    for (const variable of ['ticket.clos_at', 'client.nom', 'site.adresse', 'installation.nom', 'technicien.nom', 'demandeur.email', 'ticket.constat_tech', 'signature.client', 'signature.technicien']) {
      expect(template!.content_html).toContain(`{{${variable}}}`);
    }
    expect(demo.id_template).toBe(template!.id);
    expect(villeurbanne.id_template).toBeNull();
  });
});
