import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_SLUGS, type Role } from '@fsm/contracts';
import { createApiHarness, type ApiHarness } from '../../src/test-support/api-harness.js';
import { CASES, ROLES, seedRouteCaseWorld, type Ids } from './route-cases.js';

/*
 * Issue 22 item 2 moved every route-level role and permission check into the
 * one door (ROUTE_ACCESS). This file proves nobody's answer moved: every
 * signed-in route × every caller below answers the refusal (401/403 and its
 * French text) or the pass-through it answered before, as recorded in the
 * golden file from the code before the change. Besides the demo roles, it
 * calls as staff holding exactly one permission (and none), where a route's
 * own check could have been finer than the table.
 *
 * Answers that passed the door are recorded as `through` (their own status
 * depends on the request and timing, which is not what this file guards).
 * Regenerate only on purpose: `WRITE_GOLDEN=1 npx vitest run <this file>`.
 */

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'route-access-answers.golden.json');

let h: ApiHarness;
let ids: Ids;
/** Caller label → bearer token (null: none). */
const callers = new Map<string, string | null>();

beforeAll(async () => {
  h = await createApiHarness('api_access_golden');
  // No worker runs here: the preview answers at once, so the door is what this test sees.
  h.deps.previews = { render: async () => ({ pdf: Buffer.from('%PDF-1.4\n%%EOF\n'), templateFallback: null }), close: async () => undefined };
  ids = await seedRouteCaseWorld(h);
  callers.set('no token', null);
  for (const role of ROLES) callers.set(`${role} (defaults)`, ids.tokens[role]);
  const otherAgence = await h.createAgence('Agence étrangère');
  for (const role of ROLES) {
    const stranger = role === 'telesurveillance' ? await h.createUser({ role, telesurvAgences: [otherAgence] }) : await h.createUser({ role, agenceId: otherAgence });
    callers.set(`${role} (other agency)`, stranger.token);
  }
  for (const role of ['admin_plus', 'admin', 'technicien'] as const satisfies readonly Role[]) {
    callers.set(`${role} (no permission)`, (await h.createUser({ role, agenceId: ids.agenceId, permissions: [] })).token);
  }
  for (const slug of PERMISSION_SLUGS) {
    callers.set(`technicien (${slug} only)`, (await h.createUser({ role: 'technicien', agenceId: ids.agenceId, permissions: [slug] })).token);
  }
}, 300_000);

afterAll(async () => {
  await h?.close();
});

describe('every signed-in route × every caller', () => {
  it('answers the refusal or the pass-through it answered before the one door', async () => {
    const answers: Record<string, Record<string, string>> = {};
    for (const c of CASES) {
      const key = `${c.method} ${c.route}`;
      const row: Record<string, string> = {};
      for (const [label, token] of callers) {
        const res = await h.app.inject({
          method: c.method,
          url: c.url(ids),
          ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
          ...(c.body ? { payload: c.body(ids) as object } : {}),
        });
        const refused = res.statusCode === 401 || res.statusCode === 403;
        row[label] = refused ? `${res.statusCode} ${(res.json() as { error?: string }).error}` : 'through';
      }
      answers[key] = row;
    }
    if (process.env.WRITE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(answers, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as typeof answers;
    expect(Object.keys(answers)).toEqual(Object.keys(golden));
    for (const key of Object.keys(golden)) expect(answers[key], key).toEqual(golden[key]);
  }, 600_000);
});
