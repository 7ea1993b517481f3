import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import {
  ROUTE_ACCESS,
  accessRefusalMessage,
  canCallRoute,
  defaultPermissionsForRole,
  isApiRoute,
  routeAccessOf,
  type Role,
  type RouteAccess,
  type SignedInAccess,
} from '@fsm/contracts';
import { API_DOCS_PREFIX } from '../../src/app.js';
import { registerRouteAccess, RouteMissingFromAccessTableError } from '../../src/http/route-access-hook.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { CASES, ROLES, ROLE_OF, seedRouteCaseWorld, type Case, type Ids, type Who } from './route-cases.js';

/*
 * Item 7 of issue 12: every route × every role × own / other agency × no,
 * expired or tampered token → the status the ONE table in contracts
 * (ROUTE_ACCESS) implies. Replaces the former permission-matrix.test.ts: the
 * request-building cases moved to route-cases.ts, `allowed` now comes from
 * the table, and session 1's letters (`was`) prove the table kept everybody's
 * access as it was.
 *
 * "Allowed" means the door let the request through: the answer may still be
 * 400/404/409 for the request itself, never 401/403 in one's own agency. In
 * another agency, the routes' own scope checks answer: an id of the seeded
 * agency is 404 (existence does not leak), an explicit agence_id 403.
 */

const SESSION_EXPIRED = 'Session expirée';
const OWN_AGENCY_ONLY = 'Vous ne pouvez agir que sur votre propre agence.';

let h: ApiHarness;
let ids: Ids;
/** The demo users' permissions as the server holds them (the role's defaults). */
let permissionsOf: Record<Role, string[]>;
/** The same roles, with default permissions, in another agency (télésurveillance: assigned to it only). */
let strangers: Record<Role, TestUser>;
/** Statuses seen, for docs/reliability.md. */
const seen = new Map<string, number>();
let requests = 0;

function signedIn(c: Case): SignedInAccess {
  const access = routeAccessOf(c.method, c.route);
  if (access?.who !== 'signed-in') throw new Error(`${c.method} ${c.route} is not a signed-in route in ROUTE_ACCESS`);
  return access;
}

async function send(c: Case, token: string | null) {
  const res = await h.app.inject({
    method: c.method,
    url: c.url(ids),
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(c.body ? { payload: c.body(ids) as object } : {}),
  });
  requests += 1;
  seen.set(String(res.statusCode), (seen.get(String(res.statusCode)) ?? 0) + 1);
  return res;
}

/** The case names an entity of the seeded agency (in its URL or body). */
function namesSeededEntity(c: Case): boolean {
  const text = `${c.url(ids)} ${c.body ? JSON.stringify(c.body(ids)) : ''}`;
  return [ids.ticketId, ids.closedTicketId, ids.clientId, ids.siteId, ids.installationId, ids.agenceId, ids.qrCodeId, ids.technicienId].some((id) => text.includes(id));
}

beforeAll(async () => {
  h = await createApiHarness('api_access_matrix');
  // No worker runs here: the preview answers at once, so the door is what this test sees.
  h.deps.previews = { render: async () => ({ pdf: Buffer.from('%PDF-1.4\n%%EOF\n'), templateFallback: null }), close: async () => undefined };
  const world = await seedRouteCaseWorld(h);
  ids = world;
  permissionsOf = {} as Record<Role, string[]>;
  for (const role of ROLES) {
    // As the server holds them (login answer): the role's defaults, as the demo seed creates them.
    permissionsOf[role] = world.users[role].permissions;
    expect([...permissionsOf[role]].sort()).toEqual(defaultPermissionsForRole(role).sort());
  }
  const otherAgence = await h.createAgence('Agence étrangère');
  strangers = {} as Record<Role, TestUser>;
  for (const role of ROLES) {
    strangers[role] = role === 'telesurveillance' ? await h.createUser({ role, telesurvAgences: [otherAgence] }) : await h.createUser({ role, agenceId: otherAgence });
  }
}, 240_000);

afterAll(async () => {
  console.info(`access matrix: ${requests} requests, statuses ${JSON.stringify(Object.fromEntries([...seen].sort()))}`);
  await h?.close();
});

describe('the route-access table', () => {
  it('covers every registered API route, and names no route that does not exist', () => {
    const registered = h.app.routeCatalogue.filter((r) => isApiRoute(r.url) && !r.url.startsWith(API_DOCS_PREFIX)).map((r) => `${r.method} ${r.url}`);
    expect(registered.filter((key) => !(key in ROUTE_ACCESS))).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((key) => !registered.includes(key))).toEqual([]);
  });

  it('has a request case for every signed-in route', () => {
    const cased = new Set(CASES.map((c) => `${c.method} ${c.route}`));
    const signedInRoutes = Object.entries(ROUTE_ACCESS as Record<string, RouteAccess>).filter(([, access]) => access.who === 'signed-in').map(([key]) => key);
    expect(signedInRoutes.filter((key) => !cased.has(key))).toEqual([]);
  });

  it('grants exactly what the routes granted before it existed (session 1 matrix)', () => {
    const changed: string[] = [];
    for (const c of CASES) {
      const now = (Object.entries(ROLE_OF) as [Who, Role][])
        .filter(([, role]) => canCallRoute(signedIn(c), { role, permissions: permissionsOf[role] }))
        .map(([who]) => who)
        .join('');
      if ([...now].sort().join('') !== [...c.was].sort().join('')) changed.push(`${c.method} ${c.route}: was ${c.was}, table says ${now}`);
    }
    expect(changed).toEqual([]);
  });

  it('stops the app at start-up when a route is missing from it', async () => {
    const app = Fastify();
    registerRouteAccess(app, h.deps, { skipPrefixes: [] });
    app.get('/static/app.js', async () => 'ok'); // web assets are outside the table
    await expect(
      app.register(async (scope) => {
        scope.get('/api/nobody-declared-this', async () => 'oops');
      }),
    ).rejects.toBeInstanceOf(RouteMissingFromAccessTableError);
    await app.close().catch(() => undefined);
  });
});

describe('no, expired or tampered token', () => {
  it('answers 401 "Session expirée" on every signed-in route, before anything else', async () => {
    const wrong: string[] = [];
    const valid = ids.tokens.admin_plus;
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${header}.${Buffer.from(JSON.stringify({ ...claims, sub: ids.technicienId, exp: 4_000_000_000 })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    // Expired: issued three hours ago (time-to-live one hour), by the app's own clock.
    h.setNow(new Date(Date.now() - 3 * 3600_000));
    const expired = await h.deps.tokens.sign({ sub: world().users.admin_plus.id });
    h.setNow(new Date());
    for (const c of CASES) {
      for (const [label, token] of [['none', null], ['expired', expired], ['tampered', tampered], ['alg none', unsigned], ['garbage', 'a.b.c']] as const) {
        const res = await send(c, token);
        if (res.statusCode !== 401 || res.json().error !== SESSION_EXPIRED) wrong.push(`${c.method} ${c.route} (${label}): ${res.statusCode} ${res.body.slice(0, 100)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers 401 on the link-token routes without a token', async () => {
    for (const url of ['/api/reports/download/rapport-LYO-2026-00001-00000000.pdf', `/api/exports/${ids.ticketId}/download`]) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error).toBe(SESSION_EXPIRED);
    }
  });
});

function world(): Ids & { users: Record<Role, { id: string }> } {
  return ids as Ids & { users: Record<Role, { id: string }> };
}


describe.each(ROLES)('%s', (role) => {
  it('in its own agency: through the door exactly where the table says, else 403 with the table’s message', async () => {
    const wrong: string[] = [];
    for (const c of CASES) {
      const access = signedIn(c);
      const allowed = canCallRoute(access, { role, permissions: permissionsOf[role] });
      const res = await send(c, ids.tokens[role]);
      const got = res.statusCode;
      const ok = allowed ? got !== 401 && got !== 403 && got < 500 : got === 403 && res.json().error === accessRefusalMessage(access);
      if (!ok) wrong.push(`${c.method} ${c.route}: expected ${allowed ? 'allowed' : '403'}, got ${got} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('from another agency: same door; the seeded agency’s ids answer 404 (or 403 for an explicit agence_id)', async () => {
    const wrong: string[] = [];
    for (const c of CASES) {
      const access = signedIn(c);
      const allowed = canCallRoute(access, { role, permissions: permissionsOf[role] });
      const res = await send(c, strangers[role].token);
      const got = res.statusCode;
      const error = got >= 400 ? (res.json() as { error?: string }).error : undefined;
      let ok: boolean;
      if (!allowed) ok = got === 403 && error === accessRefusalMessage(access);
      else if (got === 401 || got >= 500) ok = false;
      // admin_plus is not locked to an agency: another "agency" changes nothing for it.
      else if (role !== 'admin_plus' && namesSeededEntity(c)) ok = got === 404 || (got === 403 && error === OWN_AGENCY_ONLY) || got === 400;
      else ok = got !== 403 || error === OWN_AGENCY_ONLY;
      if (!ok) wrong.push(`${c.method} ${c.route}: allowed=${allowed}, got ${got} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
