import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createApiHarness, type ApiHarness } from '../../src/test-support/api-harness.js';

/*
 * Issue 17: no security header at all; the app could be framed. Every answer
 * (the web UI and its client-side routes, its assets, the API, its errors)
 * now carries a strict Content-Security-Policy and the usual companions. That
 * the built UI runs under this policy, with no violation, is shown in Chromium
 * by e2e/content-security-policy.e2e.test.ts.
 */

let h: ApiHarness;
let web: string;
let app: FastifyInstance;

beforeAll(async () => {
  h = await createApiHarness('api_security_headers');
  web = await mkdtemp(join(tmpdir(), 'fsm-web-'));
  await mkdir(join(web, 'assets'));
  await writeFile(join(web, 'index.html'), '<!doctype html><html lang="fr"><script type="module" src="/assets/app.js"></script></html>');
  await writeFile(join(web, 'assets', 'app.js'), 'console.log(1)');
  app = await buildApp({ ...h.deps, webRoot: web });
});

afterAll(async () => {
  await app?.close();
  await h?.close();
  if (web) await rm(web, { recursive: true, force: true });
});

function policy(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('every answer', () => {
  const requests = [
    ['the web UI', '/'],
    ['a client-side route', '/tickets/42'],
    ['an asset', '/assets/app.js'],
    ['the health check', '/api/health'],
    ['an API refusal', '/api/tickets'],
    ['an unknown API path', '/api/nothing-here'],
  ] as const;

  it.each(requests)('%s carries a strict CSP: scripts from the app only, never framed, no plugin', async (_what, url) => {
    const res = await app.inject({ method: 'GET', url });
    const csp = policy(res);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    // Nothing from another origin, anywhere.
    for (const [directive, values] of csp) {
      for (const value of values) expect(["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:'], `${directive} ${value}`).toContain(value);
    }
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it.each(requests)('%s: nosniff, no framing, no referrer to other sites', async (_what, url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });
});

describe('HTTPS-only headers', () => {
  it('are left out when the product is served over plain HTTP (a LAN install would lose every asset)', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(policy(res).has('upgrade-insecure-requests')).toBe(false);
  });

  it('are sent when PUBLIC_URL is https', async () => {
    const secure = await buildApp({ ...h.deps, env: { ...h.deps.env, PUBLIC_URL: 'https://tickets.example.fr' } });
    try {
      const res = await secure.inject({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(policy(res).has('upgrade-insecure-requests')).toBe(true);
    } finally {
      await secure.close();
    }
  });
});
