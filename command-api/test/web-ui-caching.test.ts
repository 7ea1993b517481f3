import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

/*
 * Issue 32, item 7: the built UI was sent uncompressed with `max-age=0`. The build
 * now writes a brotli and a gzip copy beside each file (web/vite.config.ts); the
 * API serves the copy the browser accepts, caches the hashed files under /assets
 * for a year and has everything else revalidated.
 */

const SCRIPT = `console.log(${JSON.stringify('a chunk of the app '.repeat(200))});\n`;
const INDEX = '<!doctype html><html lang="fr"><head><link rel="icon" href="/favicon.svg"></head><script type="module" src="/assets/app-Ab12Cd34.js"></script></html>';

let h: ApiHarness;
let web: string;
let app: FastifyInstance;

beforeAll(async () => {
  h = await createApiHarness('api_web_ui_caching');
  web = await mkdtemp(join(tmpdir(), 'fsm-web-'));
  await mkdir(join(web, 'assets'));
  const files: [string, string][] = [
    ['index.html', INDEX],
    ['favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['assets/app-Ab12Cd34.js', SCRIPT],
  ];
  for (const [name, text] of files) {
    await writeFile(join(web, name), text);
    await writeFile(join(web, `${name}.br`), brotliCompressSync(text));
    await writeFile(join(web, `${name}.gz`), gzipSync(text));
  }
  // Under the build's threshold (1 KB): no compressed copy.
  await writeFile(join(web, 'assets', 'tiny-Ef56Gh78.js'), 'export {};');
  app = await buildApp({ ...h.deps, webRoot: web });
});

afterAll(async () => {
  await app?.close();
  await h?.close();
  if (web) await rm(web, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('a hashed asset under /assets', () => {
  it('is cached for a year as immutable', async () => {
    const res = await get('/assets/app-Ab12Cd34.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('comes brotli-compressed to a browser that accepts it, as JavaScript', async () => {
    const res = await get('/assets/app-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
  });

  it('comes gzip-compressed to one that accepts gzip only, and as is to one that accepts nothing', async () => {
    const gzip = await get('/assets/app-Ab12Cd34.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('/assets/app-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('that does not exist (a chunk of an older deployment) is a 404, not the app page', async () => {
    const res = await get('/assets/app-Old00000.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('without a compressed copy (too small to gain) comes as is', async () => {
    const res = await get('/assets/tiny-Ef56Gh78.js', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export {};');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('is never served under the name of its compressed copy', async () => {
    expect((await get('/assets/app-Ab12Cd34.js.br')).statusCode).toBe(404);
  });
});

describe('the files without a hash', () => {
  it.each(['/', '/index.html', '/tickets/42', '/login', '/ticket?key=QR-1', '/favicon.svg'])('%s is revalidated before each use (no-cache)', async (url) => {
    const res = await get(url, 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag ?? res.headers['last-modified']).toBeTruthy();
  });

  it('index.html comes compressed too, and the client-side routes get it', async () => {
    const res = await get('/tickets/42', 'br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
  });

  it('the strict CSP stays on every one of them', async () => {
    for (const url of ['/', '/assets/app-Ab12Cd34.js', '/favicon.svg']) {
      expect(String((await get(url, 'br')).headers['content-security-policy'])).toContain("script-src 'self'");
    }
  });
});
