import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BADLY_ENCODED, MAX_BODY_DEPTH, NUL_REFUSED, TOO_DEEP, jsonDepth, textProblem } from '../../src/http/text-guard.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { createQrCode, createWorld, requester, solvedCaptcha, type World } from '../tickets-fixtures.js';
import { eventStoreState, storedFiles } from './state-snapshot.js';

/*
 * Issue 17, finding 13: malformed text that got through as a 500 or was stored
 * as something else than what was sent. Each case is sent anonymously (the QR
 * form) and signed in (a client save), and must answer a French 400 that
 * changes nothing. Before the text guard: deep nesting on the QR form → 500
 * (String() of a deeply nested array overflowed the stack), "\ud800" in a
 * client name → 500 (jsonb refuses it at the append), bytes that are not UTF-8
 * → 201 with '�' stored, '%ED%A0%80' in a query string → 200.
 */

let h: ApiHarness;
let world: World;
let admin: TestUser;
let qrKey: string;

beforeAll(async () => {
  h = await createApiHarness('api_malformed_input');
  world = await createWorld(h);
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  qrKey = await createQrCode(h, world.agenceId, world.installationId);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const json = { 'content-type': 'application/json' };
const bearer = () => ({ authorization: `Bearer ${admin.token}` });
const clientBody = (nom: string) => `{"nom":${nom},"adresse":"1 rue A","ville":"Lyon","code_postal":"69001","agence_id":"${world.agenceId}"}`;

/** Sends the request and checks it is refused with `message` and changes nothing. */
async function expectRefused(inject: InjectOptions, message: string): Promise<void> {
  const storeBefore = await eventStoreState(h);
  const filesBefore = (await storedFiles(h)).join();
  const res = await h.app.inject(inject);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ error: message });
  expect(await eventStoreState(h)).toBe(storeBefore);
  expect((await storedFiles(h)).join()).toBe(filesBefore);
}

/** A multipart body with raw bytes for one field (a browser's FormData cannot send bytes that are not UTF-8). */
function rawMultipart(fields: Record<string, string | Buffer>): Pick<InjectOptions, 'payload' | 'headers'> {
  const boundary = 'fsmBoundary7d1c';
  const parts = Object.entries(fields).map(([name, value]) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n')]),
  );
  return { payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('deep nesting', () => {
  it('refuses a body nested deeper than the limit on the QR form, anonymously', async () => {
    const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    await expectRefused({ method: 'POST', url: '/api/public/ticket-create', headers: json, payload: `{"key":"${qrKey}","nom":${deepArray}}` }, TOO_DEEP);
    await expectRefused({ method: 'POST', url: '/api/public/ticket-create', headers: json, payload: `${'{"a":'.repeat(MAX_BODY_DEPTH + 1)}1${'}'.repeat(MAX_BODY_DEPTH + 1)}` }, TOO_DEEP);
  });

  it('refuses it on a signed-in route too', async () => {
    const deep = `${'['.repeat(MAX_BODY_DEPTH + 1)}"x"${']'.repeat(MAX_BODY_DEPTH + 1)}`;
    await expectRefused({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload: clientBody(deep) }, TOO_DEEP);
  });

  it('counts depth outside strings only', () => {
    expect(jsonDepth('{"a":"[[[[{{{{","b":[1,{"c":"\\"]"}]}')).toBe(3);
    expect(jsonDepth('"[[["')).toBe(0);
  });
});

describe('lone surrogates', () => {
  it('refuses "\\ud800" in a JSON text field (was a 500 at the append)', async () => {
    await expectRefused({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload: clientBody('"Dupont \\ud800"') }, NUL_REFUSED);
    await expectRefused({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload: clientBody('"\\udfff tail"') }, NUL_REFUSED);
  });

  it('refuses one in a key', async () => {
    const payload = clientBody('"Dupont"').replace('{', '{"\\ud800":"x",');
    await expectRefused({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload }, NUL_REFUSED);
  });

  it('refuses one in the QR form, anonymously', async () => {
    await expectRefused(
      { method: 'POST', url: '/api/public/ticket-create', headers: json, payload: JSON.stringify({ key: qrKey, ...requester, probleme: 'x' }).replace('"Alice"', '"Al\\ud83dice"') },
      NUL_REFUSED,
    );
  });

  it('accepts a surrogate pair (an emoji) and accented letters', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload: clientBody('"Hôtel Éole \\ud83d\\ude92"') });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().nom).toBe('Hôtel Éole 🚒');
  });
});

describe('bytes that are not UTF-8', () => {
  it('refuses them in a JSON body instead of storing U+FFFD', async () => {
    const [head, tail] = clientBody('"Dupont"').split('Dupont') as [string, string];
    const payload = Buffer.concat([Buffer.from(`${head}Dup`), Buffer.from([0xff, 0xfe]), Buffer.from(`ont${tail}`)]);
    await expectRefused({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload }, BADLY_ENCODED);
    // A surrogate encoded as UTF-8 bytes (CESU-8) is not UTF-8 either.
    const cesu = Buffer.concat([Buffer.from(`${head}Dup`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(`ont${tail}`)]);
    await expectRefused({ method: 'POST', url: '/api/clients', headers: { ...json, ...bearer() }, payload: cesu }, BADLY_ENCODED);
  });

  it('refuses them in a multipart field of the QR form', async () => {
    const captcha = await solvedCaptcha(h, '10.7.0.1');
    const form = rawMultipart({ 'g-recaptcha-response': captcha, key: qrKey, ...requester, nom: Buffer.from([0x4d, 0xff, 0x72]), probleme: 'Fuite' });
    await expectRefused({ method: 'POST', url: '/api/public/ticket-create', remoteAddress: '10.7.0.1', ...form }, BADLY_ENCODED);
  });

  it('refuses them percent-encoded in a query string', async () => {
    await expectRefused({ method: 'GET', url: '/api/clients?search=%ED%A0%80', headers: bearer() }, BADLY_ENCODED);
    await expectRefused({ method: 'GET', url: '/api/clients?search=ab%FF', headers: bearer() }, BADLY_ENCODED);
  });

  it('still reads a well-encoded query string', async () => {
    const res = await h.app.inject({ method: 'GET', url: `/api/clients?search=${encodeURIComponent('Hôtel')}`, headers: bearer() });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('textProblem', () => {
  it('names what is wrong, in keys and values, at any allowed depth', () => {
    expect(textProblem({ a: ['ok', { b: 'x\u0000' }] })).toBe(NUL_REFUSED);
    expect(textProblem({ ['k\ud800']: 1 })).toBe(NUL_REFUSED);
    expect(textProblem(['\ufffd'])).toBe(BADLY_ENCODED);
    expect(textProblem({ nom: 'Éole 🚒', n: 3, list: [null, true] })).toBeNull();
  });
});
