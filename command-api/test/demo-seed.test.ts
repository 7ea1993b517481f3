import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_ROLES, demoEmail, runDemoSeed } from '../src/seed/demo-seed.js';
import { demoSeedSteps } from '../src/seed/demo-steps.js';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_demo_seed');
});
afterAll(async () => h?.close());

describe('demo seed', () => {
  it('seeds an empty log once, and every demo user can log in with the printed password', async () => {
    const [first, second] = await Promise.all([runDemoSeed(h.app, h.deps, demoSeedSteps), runDemoSeed(h.app, h.deps, demoSeedSteps)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await runDemoSeed(h.app, h.deps, demoSeedSteps)).toBe(false);
    for (const role of DEMO_ROLES) {
      const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: demoEmail(role), motdepasse: DEMO_PASSWORD } });
      expect(res.statusCode, role).toBe(200);
      expect(res.json().user.role).toBe(role);
    }
  });
});
