import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: unknown[] }>>;
}

let h: ApiHarness;
let doc: OpenApiDocument;
let adminPlus: TestUser;
beforeAll(async () => {
  h = await createApiHarness('api_openapi');
  adminPlus = await h.createUser({ role: 'admin_plus' });
  const res = await h.request(adminPlus, { method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode).toBe(200);
  doc = res.json<OpenApiDocument>();
});
afterAll(async () => h?.close());

/** Fastify `/api/tickets/:id` is OpenAPI `/api/tickets/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('API reference at /api/docs', () => {
  it('is an OpenAPI 3 document generated from the zod schemas', () => {
    expect(doc.openapi).toMatch(/^3\./);
    // A request body described from its zod schema, not an empty placeholder.
    const login = doc.paths['/api/login']?.post as { requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } } | undefined;
    expect(Object.keys(login?.requestBody?.content?.['application/json']?.schema?.properties ?? {})).toEqual(expect.arrayContaining(['email', 'motdepasse']));
  });

  it('lists the ticket and management routes', () => {
    const paths = Object.keys(doc.paths);
    expect(paths.some((p) => p.startsWith('/api/tickets'))).toBe(true);
    for (const prefix of ['/api/clients', '/api/sites', '/api/installations', '/api/utilisateurs', '/api/agences', '/api/qrcodes', '/api/metiers']) {
      expect(paths.some((p) => p.startsWith(prefix)), prefix).toBe(true);
    }
  });

  it('lists every route the app registers (except the WebSocket)', () => {
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    const missing = h.app.routeCatalogue
      .filter((r) => r.url !== '/ws')
      .map((r) => `${r.method} ${openApiPath(r.url)}`)
      .filter((key) => !documented.has(key));
    expect(missing).toEqual([]);
  });

  it('documents the version a management edit was made on: If-Match on every edit, `version` in object bodies and answers', () => {
    type Operation = { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: object } }> } };
    const operation = (path: string, method: string) => doc.paths[path]?.[method] as Operation | undefined;
    for (const [path, method] of [
      ['/api/clients/{id}', 'put'],
      ['/api/clients/{id}', 'delete'],
      ['/api/agences/{id}/horaires', 'put'],
      ['/api/utilisateurs/{id}/permissions', 'put'],
      ['/api/metiers/{id}', 'put'],
      ['/api/templates/{id}', 'delete'],
      ['/api/qrcodes/{id}/assign', 'delete'],
    ] as const) {
      expect(operation(path, method)?.parameters?.some((p) => p.in === 'header' && p.name === 'if-match'), `${method} ${path}`).toBe(true);
    }
    for (const path of ['/api/clients/{id}', '/api/agences/{id}', '/api/telesurv/{id}/agences', '/api/templates/{id}']) {
      expect(Object.keys(operation(path, 'put')?.requestBody?.content?.['application/json']?.schema?.properties ?? {}), path).toContain('version');
    }
  });

  it('documents the Idempotency-Key header and the 202 of late read models on the commands, not on reads or sign-in', () => {
    type Operation = { parameters?: { in: string; name: string }[]; responses?: Record<string, unknown> };
    const operation = (path: string, method: string) => doc.paths[path]?.[method] as Operation | undefined;
    const hasKey = (path: string, method: string) => operation(path, method)?.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key') ?? false;
    for (const [path, method] of [['/api/tickets/manual/ticket-create', 'post'], ['/api/tickets/{id}/close', 'patch'], ['/api/clients/{id}', 'delete']] as const) {
      expect(hasKey(path, method), `${method} ${path}`).toBe(true);
      expect(Object.keys(operation(path, method)?.responses ?? {}), `${method} ${path}`).toContain('202');
    }
    expect(hasKey('/api/tickets/{id}', 'get')).toBe(false);
    expect(hasKey('/api/login', 'post')).toBe(false);
  });

  it('serves the UI and keeps the docs out of the route catalogue', async () => {
    const ui = await h.request(adminPlus, { method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    expect(h.app.routeCatalogue.some((r) => r.url.startsWith('/api/docs'))).toBe(false);
  });
});

describe('who may read the API reference (issue 17: it was public)', () => {
  const urls = ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/swagger-initializer.js'];

  it('answers 401 "Session expirée" without a token', async () => {
    for (const url of urls) {
      const res = await h.request(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error).toBe('Session expirée');
    }
  });

  it('answers 403 "Accès refusé." to every role but admin_plus', async () => {
    for (const role of ['admin', 'technicien_plus', 'technicien', 'telesurveillance'] as const) {
      const user = await h.createUser({ role });
      for (const url of urls) {
        const res = await h.request(user, { method: 'GET', url });
        expect(res.statusCode, `${role} ${url}`).toBe(403);
        expect(res.json().error).toBe('Accès refusé.');
      }
    }
  });

  it('serves admin_plus', async () => {
    for (const url of urls.slice(1)) expect((await h.request(adminPlus, { method: 'GET', url })).statusCode, url).toBe(200);
  });
});
