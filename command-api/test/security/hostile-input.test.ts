import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualTicketCreateBodySchema, publicTicketCreateBodySchema } from '@fsm/contracts';
import type { InjectOptions } from 'fastify';
import type { RouteCatalogueEntry } from '../../src/app.js';
import { API_DOCS_PREFIX } from '../../src/app.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { createQrCode, createWorld, multipart, openTicketId, type World } from '../tickets-fixtures.js';
import { eventStoreState, storedFiles } from './state-snapshot.js';
import { arbitraryOf, inputJsonSchema, mutate, withPrototypePollution } from './zod-arbitraries.js';

/*
 * Item 6 of issue 12: hostile input on EVERY registered route (the app's
 * routeCatalogue, so a new route is covered without touching this file).
 * For each route fast-check builds requests from the route's own zod schemas
 * (body, params, querystring) and just outside them: wrong types, huge
 * strings, unicode, nulls, extra and missing keys, negative / NaN numbers, bad
 * uuids, `__proto__` / `constructor.prototype` keys, invalid JSON, wrong
 * content types, random callers. It asserts:
 *   - never a 5xx;
 *   - every refusal is a 4xx with a French `error` text;
 *   - a refused request changes nothing: event-store head and the file store
 *     are the same before and after;
 *   - Object.prototype is never polluted.
 *
 * HOSTILE_RUNS (default 25) sets the number of cases per route.
 */

const RUNS_PER_ROUTE = Number(process.env.HOSTILE_RUNS ?? 25);
/** Routes whose body is multipart (not in the route schema): the contracts schema of their text fields. */
const MULTIPART_BODIES: Record<string, unknown> = {
  'POST /api/tickets/manual/ticket-create': manualTicketCreateBodySchema,
  'POST /api/public/ticket-create': publicTicketCreateBodySchema,
};
/** Not HTTP request/response routes. */
const SKIPPED = new Set(['GET /ws']);
/** English words a French refusal must not be made of (zod/Fastify defaults leaking through). */
const ENGLISH = /\b(invalid|expected|required|must|should|unexpected|cannot|not found|too (big|large|many)|body|request|error|failed|bad)\b/i;

let h: ApiHarness;
let world: World;
let callers: (TestUser | null)[];
let knownIds: string[];
const statuses = new Map<number, number>();
const refusedMessages = new Map<string, number>();
let cases = 0;
const failures: string[] = [];

beforeAll(async () => {
  h = await createApiHarness('api_hostile_input');
  // No worker runs here: previews answer at once (the route is still fuzzed up to the renderer).
  h.deps.previews = { render: async () => ({ pdf: Buffer.from('%PDF-1.4\n%%EOF\n'), templateFallback: null }), close: async () => undefined };
  world = await createWorld(h);
  const adminPlus = await h.createUser({ role: 'admin_plus', agenceId: world.agenceId });
  const admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  const technicien = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
  const telesurv = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceId] });
  // admin_plus most of the time, so requests get past the door and reach validation and handlers.
  callers = [adminPlus, adminPlus, adminPlus, adminPlus, admin, technicien, telesurv, null];
  const ticketId = await openTicketId(h, admin, world.installationId);
  const qrKey = await createQrCode(h, world.agenceId, null);
  const qr = await h.pool.query<{ id: string }>('SELECT id FROM rm.qr_codes WHERE qr_key = $1', [qrKey]).catch(() => ({ rows: [] as { id: string }[] }));
  // Ids that exist, so some cases go past "introuvable" (never the callers' own ids: a PUT on them could lock the fuzzer out).
  knownIds = [world.agenceId, world.clientId, world.siteId, world.installationId, world.metierId, ticketId, ...(qr.rows[0] ? [qr.rows[0].id] : [])];
}, 120_000);

afterAll(async () => {
  const figures = { cases, statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)), distinctRefusals: refusedMessages.size };
  console.info(`hostile input: ${JSON.stringify(figures)}`);
  await h?.close();
});

interface Shape {
  caller: TestUser | null;
  params: Record<string, string>;
  query: string;
  body: { kind: 'none' } | { kind: 'json'; text: string } | { kind: 'raw'; text: string; type: string } | { kind: 'multipart'; fields: Record<string, string>; file: Buffer | null };
  ip: string;
}

/** Percent-encodes the UTF-8 bytes (encodeURIComponent throws on a lone surrogate; a client can still send its bytes). */
const percentEncode = (value: string) => [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

const hostileParam = fc.oneof(
  fc.constantFrom('not-a-uuid', '..', '%2e%2e%2f%2e%2e%2f', '-1', '0', 'NaN', 'null', '%00', 'x'.repeat(5000), '%F0%9F%98%80', '%ZZ', '__proto__', 'constructor', '00000000-0000-0000-0000-000000000000.pdf', 'a.pdf'),
  fc.string({ unit: 'binary', maxLength: 20 }).map(percentEncode),
);

function paramsArbitrary(route: RouteCatalogueEntry): fc.Arbitrary<Record<string, string>> {
  const names = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
  if (names.length === 0) return fc.constant({});
  const schema = inputJsonSchema(route.schema?.params);
  return fc.record(
    Object.fromEntries(
      names.map((name) => {
        const fromSchema = arbitraryOf(schema?.properties?.[name] ?? { type: 'string', format: 'uuid' }).map((v) => percentEncode(String(v)));
        return [name, fc.oneof(fromSchema, fc.constantFrom(...knownIds), fc.constantFrom(...knownIds).map((id) => `${id}.pdf`), hostileParam)];
      }),
    ),
  );
}

function toQuery(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === undefined ? '' : `q=${percentEncode(String(value))}`;
  const search = new URLSearchParams();
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    for (const item of Array.isArray(v) ? v : [v]) search.append(key, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  }
  return search.toString();
}

function queryArbitrary(route: RouteCatalogueEntry): fc.Arbitrary<string> {
  const valid = arbitraryOf(inputJsonSchema(route.schema?.querystring) ?? { type: 'object' });
  return fc.oneof(
    { weight: 3, arbitrary: valid.map(toQuery) },
    { weight: 3, arbitrary: valid.chain(mutate).map(toQuery) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__[polluted]=yes', 'constructor[prototype][polluted]=yes', 'a[b][c]=1', '%ZZ=%ZZ', `q=${'x'.repeat(20_000)}`, 'page=-1&pageSize=1e9', 'from=2026-13-45&to=0') },
  );
}

function bodyArbitrary(route: RouteCatalogueEntry): fc.Arbitrary<Shape['body']> {
  const key = `${route.method} ${route.url}`;
  const multipartSchema = MULTIPART_BODIES[key];
  const schema = inputJsonSchema(multipartSchema ?? route.schema?.body);
  const valid = arbitraryOf(schema ?? { type: 'object' });
  const value = fc.oneof({ weight: 2, arbitrary: valid }, { weight: 3, arbitrary: valid.chain(mutate) });
  const json = value.map((v): Shape['body'] => ({ kind: 'json', text: JSON.stringify(v) ?? 'null' }));
  const polluted = fc.tuple(valid, fc.constantFrom('proto' as const, 'constructor' as const)).map(([v, kind]): Shape['body'] => ({ kind: 'json', text: withPrototypePollution(JSON.stringify(v) ?? '{}', kind) }));
  const raw = fc.constantFrom<Shape['body']>(
    { kind: 'raw', text: '{"a":', type: 'application/json' },
    { kind: 'raw', text: '', type: 'application/json' },
    { kind: 'raw', text: 'nom=x&prenom=y', type: 'application/x-www-form-urlencoded' },
    { kind: 'raw', text: '<xml/>', type: 'application/xml' },
    { kind: 'raw', text: 'hello', type: 'text/plain' },
    { kind: 'raw', text: '--x\r\nContent-Disposition: form-data; name="nom"\r\n\r\nx', type: 'multipart/form-data; boundary=x' },
    { kind: 'raw', text: 'garbage', type: 'multipart/form-data' },
    { kind: 'raw', text: JSON.stringify({ a: 'x'.repeat(1_000) }).repeat(2), type: 'application/json' },
  );
  const asMultipart = fc
    .tuple(value, fc.option(fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)), { nil: null }))
    .map(([v, file]): Shape['body'] => ({
      kind: 'multipart',
      fields: Object.fromEntries(Object.entries(v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v }).map(([k, f]) => [k, typeof f === 'string' ? f : JSON.stringify(f) ?? ''])),
      file,
    }));
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  if (multipartSchema) return fc.oneof({ weight: 4, arbitrary: asMultipart }, { weight: 2, arbitrary: json }, { weight: 1, arbitrary: polluted }, { weight: 1, arbitrary: raw });
  if (!hasBody) return fc.oneof({ weight: 6, arbitrary: fc.constant<Shape['body']>({ kind: 'none' }) }, { weight: 1, arbitrary: json }, { weight: 1, arbitrary: raw });
  return fc.oneof({ weight: 6, arbitrary: json }, { weight: 2, arbitrary: polluted }, { weight: 2, arbitrary: raw }, { weight: 1, arbitrary: fc.constant<Shape['body']>({ kind: 'none' }) });
}

function shapeArbitrary(route: RouteCatalogueEntry): fc.Arbitrary<Shape> {
  return fc.record({
    caller: fc.constantFrom(...callers),
    params: paramsArbitrary(route),
    query: queryArbitrary(route),
    body: bodyArbitrary(route),
    ip: fc.ipV4(),
  });
}

async function toInject(route: RouteCatalogueEntry, shape: Shape): Promise<InjectOptions> {
  const path = route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) => shape.params[name] ?? 'x');
  const headers: Record<string, string> = shape.caller ? { authorization: `Bearer ${shape.caller.token}` } : {};
  const base: InjectOptions = { method: route.method as InjectOptions['method'], url: shape.query ? `${path}?${shape.query}` : path, remoteAddress: shape.ip, headers };
  switch (shape.body.kind) {
    case 'none':
      return base;
    case 'json':
      return { ...base, payload: shape.body.text, headers: { ...headers, 'content-type': 'application/json' } };
    case 'raw':
      return { ...base, payload: shape.body.text, headers: { ...headers, 'content-type': shape.body.type } };
    case 'multipart': {
      const file = shape.body.file ? { bytes: shape.body.file, filename: 'photo.jpg', type: 'image/jpeg' } : undefined;
      const form = await multipart(shape.body.fields, file);
      return { ...base, payload: form.payload, headers: { ...headers, ...(form.headers as Record<string, string>) } };
    }
  }
}

function describeCase(route: RouteCatalogueEntry, inject: InjectOptions, status: number, body: string): string {
  const payload = typeof inject.payload === 'string' ? inject.payload.slice(0, 200) : inject.payload ? '<binary>' : '';
  return `${route.method} ${route.url} → ${status} ${body.slice(0, 200)} | url=${String(inject.url).slice(0, 200)} payload=${payload}`;
}

async function tryCase(route: RouteCatalogueEntry, shape: Shape): Promise<void> {
  const inject = await toInject(route, shape);
  const storeBefore = await eventStoreState(h);
  const filesBefore = (await storedFiles(h)).join();
  const res = await h.app.inject(inject);
  cases += 1;
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push('5xx');
  if (res.statusCode >= 400) {
    let error: unknown;
    try {
      error = (res.json() as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    if (typeof error !== 'string' || error.trim() === '') problems.push('no error text');
    else {
      refusedMessages.set(error, (refusedMessages.get(error) ?? 0) + 1);
      if (ENGLISH.test(error)) problems.push(`English error text "${error}"`);
    }
    if ((await eventStoreState(h)) !== storeBefore) problems.push('event store changed on a refusal');
    if ((await storedFiles(h)).join() !== filesBefore) problems.push('file store changed on a refusal');
  }
  if ((Object.prototype as Record<string, unknown>).polluted !== undefined) problems.push('Object.prototype polluted');
  if (problems.length > 0) {
    const line = `${problems.join(', ')}: ${describeCase(route, inject, res.statusCode, res.body)}`;
    failures.push(line);
    throw new Error(line);
  }
}

describe('hostile input on every registered route', () => {
  it('is refused with a French 4xx, never a 5xx, and a refusal changes nothing', async () => {
    const routes = h.app.routeCatalogue.filter((route) => !route.url.startsWith(API_DOCS_PREFIX) && !SKIPPED.has(`${route.method} ${route.url}`));
    expect(routes.length).toBeGreaterThan(80);
    const perRoute: string[] = [];
    for (const route of routes) {
      try {
        await fc.assert(
          fc.asyncProperty(shapeArbitrary(route), async (shape) => tryCase(route, shape)),
          { numRuns: RUNS_PER_ROUTE, endOnFailure: true, seed: Number(process.env.HOSTILE_SEED ?? Date.now() % 2 ** 31) },
        );
      } catch (error) {
        perRoute.push((error as Error).message.split('\n').slice(0, 4).join(' '));
      }
    }
    const fivexx = failures.filter((line) => line.startsWith('5xx'));
    expect(fivexx.slice(0, 10)).toEqual([]);
    expect(failures.slice(0, 20)).toEqual([]);
    expect(perRoute).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(routes.length * RUNS_PER_ROUTE);
  }, 240_000);
});
