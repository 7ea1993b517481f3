import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; parameters?: unknown[] }>>;
}

let h: ApiHarness;
let doc: OpenApiDocument;
beforeAll(async () => {
  h = await createApiHarness('api_openapi');
  const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
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

  it('serves the UI and keeps the docs out of the route catalogue', async () => {
    const ui = await h.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    expect(h.app.routeCatalogue.some((r) => r.url.startsWith('/api/docs'))).toBe(false);
  });
});
