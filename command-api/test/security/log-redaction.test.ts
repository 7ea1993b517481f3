import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src/app.js';
import { redactUrl } from '../../src/http/log-redaction.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';

/*
 * Issue 17: "the browser opens /ws?token=<session token> and the log records
 * the URL at info level [...] A token taken from the log was accepted." The
 * app here logs at the most verbose level into a string; whatever reaches it
 * (request lines, websocket refusals, errors), no credential may.
 */

let h: ApiHarness;
let app: FastifyInstance;
let base: string;
let user: TestUser;
const lines: string[] = [];

beforeAll(async () => {
  h = await createApiHarness('api_log_redaction');
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp(h.deps, { loggerInstance: pino({ level: 'trace' }, sink) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  user = await h.createUser({ role: 'admin' });
});

afterAll(async () => {
  await app?.close();
  await h?.close();
});

function openSocket(path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://${base}${path}`, { headers });
    socket.on('open', () => setTimeout(() => socket.close(), 50));
    socket.on('close', (code) => resolve(code));
    socket.on('error', () => resolve(-1));
  });
}

describe('log lines', () => {
  it('never carry a token from a URL or an authorization header, on any kind of request', async () => {
    const token = user.token;
    const encoded = encodeURIComponent(token);
    const http = (path: string, init: RequestInit = {}) => fetch(`http://${base}${path}`, init);

    // The live socket the way older clients open it, and with the token under other spellings.
    await openSocket(`/ws?token=${encoded}&since=1`);
    await openSocket(`/ws?since=1&%74oken=${encoded}`);
    await openSocket('/ws', { authorization: `Bearer ${token}` });
    // An upgrade on a path that has no socket (@fastify/websocket logs the path).
    await openSocket(`/api/tickets?token=${encoded}`);
    // Plain requests: a download link, a 404, a refused route, a bearer header, a logout body.
    await http(`/api/reports/download/rapport-LYO-2026-00001-00000000.pdf?token=${encoded}`);
    await http(`/api/nothing-here?access_token=${encoded}&x=1`);
    await http(`/api/tickets?Token=${encoded}`);
    await http('/api/tickets', { headers: { authorization: `Bearer ${token}` } });
    await http('/api/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    app.log.info({ headers: { authorization: `Bearer ${token}` }, token }, 'une ligne qui les citerait');

    const all = lines.join('\n');
    // The lines are there (the test would pass vacuously otherwise), with the URLs' shape kept.
    expect(all).toContain('"url":"/ws?token=[masqué]&since=1"');
    expect(all).toContain('"url":"/api/reports/download/rapport-LYO-2026-00001-00000000.pdf?token=[masqué]"');
    expect(all).toContain('"url":"/api/nothing-here?access_token=[masqué]&x=1"');
    for (const secret of [token, encoded, ...token.split('.').filter((part) => part.length > 20)]) expect(all).not.toContain(secret);
  });
});

describe('redactUrl', () => {
  it('masks every query value whose name says token, as the server decodes names', () => {
    expect(redactUrl('/ws?token=abc.def&since=2')).toBe('/ws?token=[masqué]&since=2');
    expect(redactUrl('/ws?since=2&token=a&token=b')).toBe('/ws?since=2&token=[masqué]&token=[masqué]');
    expect(redactUrl('/x?%74oken=abc&ACCESS_TOKEN=def&tok+en=ghi')).toBe('/x?%74oken=[masqué]&ACCESS_TOKEN=[masqué]&tok+en=ghi');
    expect(redactUrl('http://h/x?a=1&token=abc#frag')).toBe('http://h/x?a=1&token=[masqué]#frag');
    expect(redactUrl('/api/tickets')).toBe('/api/tickets');
    expect(redactUrl('/api/tickets?statut=clos')).toBe('/api/tickets?statut=clos');
  });
});

describe('redactUrl, whatever carries the token (issue 32, item 12)', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3OC0xMjM0LTEyMzQtMTIzNC0xMjM0NTY3ODkwMTIiLCJleHAiOjE3MDAwMDAwMDB9.s3cr3tS1gnatureP4rtWithEnoughCharacters_-xyz';

  it('masks a token after `;`, in a path segment, in a fragment, encoded or not', () => {
    expect(redactUrl(`/api/reports/download/a.pdf?a=1;token=${jwt}`)).toBe('/api/reports/download/a.pdf?a=1;token=[masqué]');
    expect(redactUrl(`/x;token=${jwt}/y`)).not.toContain('eyJzdWIi');
    expect(redactUrl(`/x#access_token=${jwt}`)).toBe('/x#access_token=[masqué]');
    expect(redactUrl(`/x?q=${encodeURIComponent(encodeURIComponent(jwt))}`)).not.toContain('s3cr3t');
    expect(redactUrl(`/x/${jwt}`)).toBe('/x/[masqué]');
    expect(redactUrl(`/api/files/${'a1'.repeat(32)}.jpg?exp=1700000000&sig=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcd`)).toBe('/api/files/[masqué]?exp=1700000000&sig=[masqué]');
  });

  it('keeps ids and readable names, so a line still says what was asked', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(redactUrl(`/api/tickets/${id}/interventions?statut=clos&since=12`)).toBe(`/api/tickets/${id}/interventions?statut=clos&since=12`);
    expect(redactUrl('/api/reports/download/rapport-LYO-2026-00001-00000000-intervention-2.pdf')).toBe('/api/reports/download/rapport-LYO-2026-00001-00000000-intervention-2.pdf');
    expect(redactUrl('/api/tickets/clos?date_debut=2026-01-01&date_fin=2026-01-31')).toBe('/api/tickets/clos?date_debut=2026-01-01&date_fin=2026-01-31');
  });

  it('never lets a session, download or signature token through, whatever the separators and names (property)', () => {
    const base64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 43, maxLength: 120 });
    const token = fc.oneof(
      base64url,
      fc.tuple(base64url, base64url).map(([payload, signature]) => `eyJhbGciOiJIUzI1NiJ9.${payload}.${signature}`),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
    );
    const separator = fc.constantFrom('?', '&', ';', '/', '#', '?x=1&', '?x=1;', '#/route?');
    const name = fc.oneof(fc.constantFrom('token', 'sig', '%74oken', 'access_token', 'a', 'since', 'q', 'file'), fc.string({ unit: fc.constantFrom(...'abcxyz_'), maxLength: 8 }));
    const encoding = fc.constantFrom((t: string) => t, encodeURIComponent, (t: string) => encodeURIComponent(encodeURIComponent(t)), (t: string) => t.replace(/\./g, '%2E'));
    fc.assert(
      fc.property(fc.constantFrom('/ws', '/api/files/x.png', 'http://h:3000/api/reports/download/r.pdf'), separator, name, token, encoding, (path, sep, key, secret, encode) => {
        const logged = redactUrl(`${path}${sep}${key}=${encode(secret)}`);
        for (const part of secret.split('.')) if (part.length >= 24) expect(logged).not.toContain(part);
      }),
      { numRuns: 500 },
    );
  });
});
