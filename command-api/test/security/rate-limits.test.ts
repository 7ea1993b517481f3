import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '@fsm/contracts';
import { buildApp } from '../../src/app.js';
import type { AppDeps } from '../../src/app-deps.js';
import { createRateLimitRedis, type RateLimitBackend } from '../../src/http/rate-limits.js';
import { LOGIN_RATE_LIMIT_PER_MINUTE } from '../../src/routes/auth/auth-routes.js';
import { PUBLIC_RATE_LIMIT } from '../../src/routes/tickets/public-ticket-routes.js';
import { createApiHarness, dropRateLimitKeys, TEST_PASSWORD, type ApiHarness } from '../../src/test-support/api-harness.js';
import { createQrCode, createWorld, multipart, requester, solvedCaptcha } from '../tickets-fixtures.js';
import { eventStoreState } from './state-snapshot.js';

/*
 * Issue 17: per-address limits that a forged header cannot dodge and that N
 * API instances enforce once. Every limit counts request.ip, which believes
 * X-Forwarded-For only for the proxies TRUST_PROXY names; the counters live in
 * Redis under one prefix per deployment (one per app pair in this file).
 */

const LOCKED = /^Trop de tentatives de connexion\. Réessayez dans \d+ minutes?\.$/;
const TOO_MANY_PUBLIC = /^Trop de demandes depuis votre connexion\. Merci de réessayer dans \d+ secondes?\.$/;
const UNAVAILABLE = 'Service momentanément indisponible. Merci de réessayer dans quelques instants.';

let h: ApiHarness;
let qrKey: string;
const extraApps: FastifyInstance[] = [];
const extraRedis: RateLimitBackend[] = [];

beforeAll(async () => {
  h = await createApiHarness('api_security_rate_limits');
  const world = await createWorld(h);
  qrKey = await createQrCode(h, world.agenceId, world.installationId);
}, 60_000);

afterAll(async () => {
  for (const app of extraApps) await app.close();
  for (const backend of extraRedis) {
    await dropRateLimitKeys(backend);
    backend.redis.disconnect();
  }
  await h?.close();
});

/** Another API instance on the same database; its own Redis prefix unless one is given (to share counters). */
async function instance(options: { trustProxy?: Env['TRUST_PROXY']; rateLimits?: RateLimitBackend } = {}): Promise<FastifyInstance> {
  let rateLimits = options.rateLimits;
  if (!rateLimits) {
    rateLimits = { redis: createRateLimitRedis(h.deps.env.REDIS_URL), prefix: `rl${randomUUID().slice(0, 8)}:` };
    extraRedis.push(rateLimits);
  }
  const deps: AppDeps = { ...h.deps, env: { ...h.deps.env, TRUST_PROXY: options.trustProxy ?? false }, rateLimits };
  const app = await buildApp(deps);
  extraApps.push(app);
  return app;
}

const wrongLogin = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}, i = 0) =>
  app.inject({ method: 'POST', url: '/api/login', remoteAddress, headers, payload: { email: `personne.${i}@example.fr`, motdepasse: 'Mauvais-1!' } });

describe('a forged X-Forwarded-For', () => {
  it('changes nothing while TRUST_PROXY is off (the default): one address stays one address', async () => {
    const app = await instance();
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_RATE_LIMIT_PER_MINUTE + 5; i++) {
      // A new "client" in the header for each try, as the attacker of the issue did.
      const res = await wrongLogin(app, '203.0.113.10', { 'x-forwarded-for': `10.${i >> 8}.${i & 255}.1` }, i);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().error).toMatch(LOCKED);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_RATE_LIMIT_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it('changes nothing for the public form and its captcha either', async () => {
    const app = await instance();
    const captchas: number[] = [];
    for (let i = 0; i < PUBLIC_RATE_LIMIT.captchaPerMinute + 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/public/captcha', remoteAddress: '203.0.113.11', headers: { 'x-forwarded-for': `10.9.${i}.1` } });
      captchas.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().error).toMatch(TOO_MANY_PUBLIC);
    }
    expect(captchas.filter((s) => s === 200)).toHaveLength(PUBLIC_RATE_LIMIT.captchaPerMinute);
    const forms: number[] = [];
    for (let i = 0; i < PUBLIC_RATE_LIMIT.createPerMinute + 3; i++) {
      // No captcha: each one is refused (400) but still counted against the address.
      const body = await multipart({ key: qrKey, ...requester, probleme: 'Fuite', 'g-recaptcha-response': 'bidon' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/ticket-create',
        remoteAddress: '203.0.113.12',
        payload: body.payload,
        headers: { ...body.headers, 'x-forwarded-for': `10.8.${i}.1` },
      });
      forms.push(res.statusCode);
    }
    expect(forms.filter((s) => s === 429)).toHaveLength(3);
  });

  it('sets the client address only when it comes from a proxy TRUST_PROXY names', async () => {
    const app = await instance({ trustProxy: ['127.0.0.1'] });
    // Through the trusted proxy: each forwarded client is counted on its own.
    for (let client = 1; client <= 3; client++) {
      for (let i = 0; i < LOGIN_RATE_LIMIT_PER_MINUTE; i++) {
        expect((await wrongLogin(app, '127.0.0.1', { 'x-forwarded-for': `198.51.100.${client}` }, i)).statusCode).toBe(401);
      }
      expect((await wrongLogin(app, '127.0.0.1', { 'x-forwarded-for': `198.51.100.${client}` })).statusCode).toBe(429);
    }
    // The same header straight from the Internet (not the proxy): the sender's own address counts.
    for (let i = 0; i < LOGIN_RATE_LIMIT_PER_MINUTE; i++) {
      expect((await wrongLogin(app, '203.0.113.13', { 'x-forwarded-for': `198.51.100.${100 + i}` }, i)).statusCode).toBe(401);
    }
    expect((await wrongLogin(app, '203.0.113.13', { 'x-forwarded-for': '198.51.100.250' })).statusCode).toBe(429);
  }, 60_000);

  it('cannot rotate within one IPv6 /64 either', async () => {
    const app = await instance();
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_RATE_LIMIT_PER_MINUTE + 2; i++) statuses.push((await wrongLogin(app, `2001:db8:1:2::${(i + 1).toString(16)}`, {}, i)).statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  });
});

describe('two API instances', () => {
  it('share one limit per address (counters in Redis), not one each', async () => {
    const shared: RateLimitBackend = { redis: createRateLimitRedis(h.deps.env.REDIS_URL), prefix: `rl${randomUUID().slice(0, 8)}:` };
    extraRedis.push(shared);
    const [a, b] = [await instance({ rateLimits: shared }), await instance({ rateLimits: shared })];
    const statuses: number[] = [];
    // Alternate, as a load balancer would.
    for (let i = 0; i < LOGIN_RATE_LIMIT_PER_MINUTE + 4; i++) statuses.push((await wrongLogin(i % 2 === 0 ? a : b, '203.0.113.20', {}, i)).statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_RATE_LIMIT_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    // And the public form's limit too: what one instance accepted counts on the other.
    const forms: number[] = [];
    for (let i = 0; i < PUBLIC_RATE_LIMIT.createPerMinute + 2; i++) {
      const res = await (i % 2 === 0 ? a : b).inject({
        method: 'POST',
        url: '/api/public/ticket-create',
        remoteAddress: '203.0.113.21',
        ...(await multipart({ key: qrKey, ...requester, probleme: 'Fuite', 'g-recaptcha-response': 'bidon' })),
      });
      forms.push(res.statusCode);
    }
    expect(forms.filter((s) => s === 400)).toHaveLength(PUBLIC_RATE_LIMIT.createPerMinute);
    expect(forms.filter((s) => s === 429)).toHaveLength(2);
  });
});

describe('when Redis cannot count', () => {
  let app: FastifyInstance;
  let user: Awaited<ReturnType<ApiHarness['createUser']>>;

  beforeAll(async () => {
    // Nothing listens on port 1: every count fails at once.
    const away: RateLimitBackend = { redis: createRateLimitRedis('redis://127.0.0.1:1'), prefix: 'away:' };
    extraRedis.push(away);
    app = await instance({ rateLimits: away });
    user = await h.createUser({ role: 'technicien' });
  });

  it('login goes on (the per-account backoff in Postgres still slows guessing)', async () => {
    const ok = await app.inject({ method: 'POST', url: '/api/login', remoteAddress: '203.0.113.30', payload: { email: user.email, motdepasse: TEST_PASSWORD } });
    expect(ok.statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await app.inject({ method: 'POST', url: '/api/login', remoteAddress: '203.0.113.31', payload: { email: user.email, motdepasse: `Faux-${i}!` } })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('the anonymous public form and its captcha answer 503 in French and store nothing', async () => {
    const captcha = await solvedCaptcha(h, '203.0.113.32');
    const before = await eventStoreState(h);
    const form = await app.inject({
      method: 'POST',
      url: '/api/public/ticket-create',
      remoteAddress: '203.0.113.33',
      ...(await multipart({ key: qrKey, ...requester, probleme: 'Fuite', 'g-recaptcha-response': captcha })),
    });
    expect(form.statusCode).toBe(503);
    expect(form.json()).toMatchObject({ error: UNAVAILABLE, code: 'UNAVAILABLE' });
    const challenge = await app.inject({ method: 'GET', url: '/api/public/captcha', remoteAddress: '203.0.113.33' });
    expect(challenge.statusCode).toBe(503);
    expect(challenge.json().error).toBe(UNAVAILABLE);
    expect(await eventStoreState(h)).toBe(before);
    // The same solution, on the instance whose Redis answers: accepted (it was not spent by the refusal).
    const accepted = await h.request(null, {
      method: 'POST',
      url: '/api/public/ticket-create',
      remoteAddress: '203.0.113.33',
      ...(await multipart({ key: qrKey, ...requester, probleme: 'Fuite', 'g-recaptcha-response': captcha })),
    });
    expect(accepted.statusCode).toBe(201);
  });
});
