import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PAGING_MESSAGES,
  addCalendarDays,
  isoDayOfWeek,
  parisCalendarDay,
  percentWithOneDecimal,
  statsWeekLabel,
  type StatsSummary,
  type StatsTicketItem,
  type WeeklySlaPoint,
} from '@fsm/contracts';
import { createTwoAgencyWorld, type ApiHarness, type TestUser, type TwoAgencyWorld } from '../src/test-support/api-harness.js';
import { ticketSeed } from './stats/ticket-seed.js';

/*
 * Issue #19: GET /api/tickets, /api/tickets/clos and /api/stats/tickets take
 * an opt-in page (`limit`, `cursor`). Called as the spec calls them they must
 * answer exactly what they answered before: the golden file holds those
 * bytes, recorded from the code as it was before paging (ids, random in each
 * run, replaced by their order of first appearance). Then every page walk
 * must give back the un-paged rows in the same order, with the same totals.
 */

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'unpaged-answers.golden.json');

let h: ApiHarness;
const now = new Date('2025-07-01T10:00:00.000Z');
let lyon: string;
let paris: string;
let users: Record<'admin' | 'technicien' | 'adminPlus' | 'statsGlobal' | 'parisAdmin', TestUser>;
const ids: string[] = [];
const technicien = { id: '6d1f3a52-8c1e-4f0e-9a51-3b2f6c7d8e90', prenom: 'Léa', nom: 'Martin' };
let metierId = '';

/** The same set of tickets in every run: dates, names, statuses and quotes follow `i`. */
async function seedTickets(world: TwoAgencyWorld): Promise<void> {
  const seed = ticketSeed(world.h);
  const working = await seed.metier(0, 'Désenfumage');
  const calendar = await seed.metier(1, 'Sécurité incendie');
  metierId = calendar.id;
  const start = Date.parse('2025-02-03T07:13:00.000Z');
  for (let i = 0; i < 48; i++) {
    const openedAt = new Date(start + i * 3.1 * 86_400_000 + i * 1_234_567).toISOString();
    const at = (hours: number) => new Date(Date.parse(openedAt) + hours * 3_600_000).toISOString();
    const id = await seed.open({
      agenceId: i % 4 === 0 ? world.paris : world.lyon,
      metier: i % 5 === 0 ? null : i % 2 === 0 ? working : calendar,
      openedAt,
      delai: [4, null, 2.5, 24, 48][i % 5],
      clientNom: `Client ${i % 4}`,
      siteNom: `Site ${i % 6}`,
      installationNom: `Installation ${i}`,
      numChrono: `LYO-2025-${String(i).padStart(5, '0')}`,
      urgent: i % 7 === 0,
    });
    ids.push(id);
    const step = i % 6;
    await seed.cycle(id, step, technicien, at, { late: i % 4 === 0, devis: step === 3 || i % 8 === 4 ? 1 : 0 });
    if (step === 3 && i % 4 === 1 && openedAt < '2025-06-15') await seed.validateQuote(id, '2025-06-18');
  }
}

beforeAll(async () => {
  ({ h, lyon, paris, users } = await createTwoAgencyWorld('api_paged_lists', {
    now,
    seedTickets,
    users: (world) => ({
      admin: { role: 'admin', agenceId: world.lyon },
      technicien: { role: 'technicien_plus', agenceId: world.paris },
      adminPlus: { role: 'admin_plus', agenceId: world.paris },
      statsGlobal: { role: 'admin', agenceId: world.lyon, permissions: ['tickets.stats-global'] },
      parisAdmin: { role: 'admin', agenceId: world.paris },
    }),
  }));
}, 180_000);
afterAll(async () => h?.close());

async function answer(user: TestUser, url: string): Promise<string> {
  const res = await h.request(user, { method: 'GET', url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.body;
}

/** Ids differ in every run: each becomes `<id N>`, N its order of first appearance in the body. */
function withStableIds(body: string, known: Map<string, string>): string {
  return body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    let name = known.get(id);
    if (name === undefined) {
      name = `<id ${known.size}>`;
      known.set(id, name);
    }
    return name;
  });
}

/** The spec-shaped calls the golden file holds, per user. */
function unpagedCalls(): [string, TestUser, string][] {
  const opens = ['', '?statut=ouvert', '?statut=en_cours', '?statut=intervention', '?urgent=1', '?devis_attente=1', '?statut=clos'];
  const closed = [
    '',
    '?date_debut=2025-01-01&date_fin=2025-12-31',
    '?date_debut=2025-03-30',
    '?date_fin=2025-04-15',
    `?date_debut=2025-01-01&metier_id=${metierId}`,
    `?date_debut=2025-01-01&technicien_id=${technicien.id}`,
    '?date_debut=2025-01-01&devis_attente=1',
  ];
  const stats = ['', '?from=2025-01-01&to=2025-12-31', '?from=2025-03-30&to=2025-03-30', `?from=2025-02-01&to=2025-06-30&metier_id=${metierId}`];
  const calls: [string, TestUser, string][] = [];
  for (const [name, user] of [
    ['admin', users.admin],
    ['adminPlus', users.adminPlus],
  ] as const) {
    for (const q of opens) calls.push([`${name} open ${q}`, user, `/api/tickets${q}`]);
    for (const q of closed) calls.push([`${name} closed ${q}`, user, `/api/tickets/clos${q}`]);
  }
  for (const [name, user] of [
    ['admin', users.admin],
    ['statsGlobal', users.statsGlobal],
  ] as const) {
    for (const q of stats) calls.push([`${name} stats ${q}`, user, `/api/stats/tickets${q}`]);
  }
  calls.push(['statsGlobal stats one agency', users.statsGlobal, `/api/stats/tickets?from=2025-01-01&to=2025-12-31&agence_id=${paris}`]);
  return calls;
}

describe('the spec-shaped answers (no limit)', () => {
  it('are byte for byte what they were before paging', async () => {
    const known = new Map<string, string>([
      [lyon, '<lyon>'],
      [paris, '<paris>'],
      [metierId, '<métier>'],
    ]);
    const bodies: Record<string, string> = {};
    for (const [label, user, url] of unpagedCalls()) bodies[withStableIds(label, known)] = withStableIds(await answer(user, url), known);
    if (process.env.RECORD_GOLDEN === '1') {
      // Recorded once, from the code before paging (see the file's header); never rewritten by a normal run.
      mkdirSync(dirname(GOLDEN), { recursive: true });
      writeFileSync(GOLDEN, `${JSON.stringify(bodies, null, 1)}\n`);
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing`).toBe(true);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>;
    expect(Object.keys(bodies)).toEqual(Object.keys(golden));
    for (const label of Object.keys(golden)) expect(bodies[label], label).toBe(golden[label]);
    // Not a vacuous comparison.
    expect(JSON.parse(golden['adminPlus open ']!).tickets.length).toBeGreaterThan(20);
    expect(JSON.parse(golden['adminPlus closed ?date_debut=2025-01-01&date_fin=2025-12-31']!).tickets.length).toBeGreaterThan(15);
    expect(JSON.parse(golden['statsGlobal stats ?from=2025-01-01&to=2025-12-31']!).items.length).toBe(48);
    expect(JSON.parse(golden['admin open ?statut=ouvert']!).tickets.length).toBeGreaterThan(2);
  });
});

// ─── Pages ───────────────────────────────────────────────────────────────────

interface Page {
  next_cursor: string | null;
  total: number;
  tickets?: { id: string }[];
  items?: StatsTicketItem[];
  counts?: Record<string, number> | null;
  summary?: StatsSummary | null;
  weekly?: WeeklySlaPoint[] | null;
}

async function getJson<T>(user: TestUser, url: string): Promise<T> {
  return JSON.parse(await answer(user, url)) as T;
}

function withPage(url: string, limit: number, cursor: string | null): string {
  const separator = url.includes('?') ? '&' : '?';
  return `${url}${separator}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`;
}

/** Every page of `url` with `limit`, following next_cursor. */
async function walk(user: TestUser, url: string, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await getJson<Page>(user, withPage(url, limit, cursor));
    pages.push(page);
    cursor = page.next_cursor;
    expect(pages.length, url).toBeLessThan(200);
  } while (cursor !== null);
  return pages;
}

/** The rows of a list answer, each as its own JSON text (same keys, same order, same values). */
const rowsOf = (rows: readonly unknown[]) => rows.map((row) => JSON.stringify(row));

/** The weekly trend as the Statistiques screen computed it from every item before paging (the former web/src/features/stats/weekly-trend.ts). */
function weeklyFromItems(items: readonly StatsTicketItem[], from: string, to: string): WeeklySlaPoint[] {
  const mondayOf = (day: string) => addCalendarDays(day, 1 - isoDayOfWeek(day));
  const points = new Map<string, { judged: number; ok: number }>();
  for (let week = mondayOf(from); week <= to; week = addCalendarDays(week, 7)) points.set(week, { judged: 0, ok: 0 });
  for (const item of items) {
    if (item.sla_ok === null) continue;
    const week = mondayOf(parisCalendarDay(item.created_at));
    const point = points.get(week) ?? { judged: 0, ok: 0 };
    point.judged += 1;
    if (item.sla_ok) point.ok += 1;
    points.set(week, point);
  }
  return [...points.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([week, { judged, ok }]) => ({ week, label: statsWeekLabel(week), judged, ok, pct: percentWithOneDecimal(ok, judged) }));
}

const openUrls = ['/api/tickets', '/api/tickets?statut=ouvert', '/api/tickets?statut=en_cours', '/api/tickets?statut=intervention', '/api/tickets?urgent=1', '/api/tickets?devis_attente=1', '/api/tickets?urgent=1&statut=intervention&devis_attente=1'];
const closedUrls = () => [
  '/api/tickets/clos',
  '/api/tickets/clos?date_debut=2025-01-01&date_fin=2025-12-31',
  '/api/tickets/clos?date_debut=2025-03-30',
  `/api/tickets/clos?date_debut=2025-01-01&metier_id=${metierId}`,
  `/api/tickets/clos?date_debut=2025-01-01&technicien_id=${technicien.id}`,
  '/api/tickets/clos?date_debut=2025-01-01&devis_attente=1',
];
const statsUrls = () => [
  '/api/stats/tickets',
  '/api/stats/tickets?from=2025-01-01&to=2025-12-31',
  '/api/stats/tickets?from=2025-03-30&to=2025-03-30',
  `/api/stats/tickets?from=2025-02-01&to=2025-06-30&metier_id=${metierId}`,
];

/** The open list screen's chips, counted from the whole answer as the screen did (ticket-list-screen.tsx). */
function chipCounts(tickets: readonly { urgent: boolean; statut: string }[]) {
  return {
    tout: tickets.length,
    urgents: tickets.filter((t) => t.urgent).length,
    ouverts: tickets.filter((t) => t.statut === 'ouvert').length,
    en_cours: tickets.filter((t) => t.statut === 'en_cours').length,
    interventions: tickets.filter((t) => t.statut === 'intervention').length,
  };
}

async function expectListWalks(user: TestUser, url: string, limits: readonly number[]): Promise<void> {
  const whole = (await getJson<{ tickets: { id: string; urgent: boolean; statut: string }[] }>(user, url)).tickets;
  const devisAttente = url.includes('devis_attente=1');
  const chips = url.startsWith('/api/tickets?') || url === '/api/tickets' ? chipCounts((await getJson<{ tickets: { urgent: boolean; statut: string }[] }>(user, devisAttente ? '/api/tickets?devis_attente=1' : '/api/tickets')).tickets) : null;
  for (const limit of limits) {
    const pages = await walk(user, url, limit);
    const label = `${url} limit=${limit}`;
    expect(rowsOf(pages.flatMap((page) => page.tickets!)), label).toEqual(rowsOf(whole));
    // No empty page after the last row, and every page but the last is full.
    expect(pages.length, label).toBe(Math.max(1, Math.ceil(whole.length / limit)));
    for (const page of pages) expect(page.total, label).toBe(whole.length);
    if (chips !== null) for (const page of pages) expect(page.counts, label).toEqual(chips);
  }
}

describe('GET /api/tickets?limit= and /api/tickets/clos?limit=', () => {
  it('walks the open list page by page: the un-paged rows in the same order, with its total and chip counts', async () => {
    for (const user of [users.admin, users.adminPlus, users.technicien]) for (const url of openUrls) await expectListWalks(user, url, [1, 3, 200]);
  });

  it('walks the closed search page by page with each filter', async () => {
    for (const user of [users.admin, users.adminPlus]) for (const url of closedUrls()) await expectListWalks(user, url, [1, 4, 200]);
  });

  it('answers the un-paged shape exactly when limit is absent, and the page shape when it is given', async () => {
    expect(Object.keys(await getJson<object>(users.admin, '/api/tickets'))).toEqual(['tickets']);
    expect(Object.keys(await getJson<object>(users.admin, '/api/tickets?limit=2'))).toEqual(['tickets', 'next_cursor', 'total', 'counts']);
    expect(Object.keys(await getJson<object>(users.admin, '/api/tickets/clos?limit=2'))).toEqual(['tickets', 'next_cursor', 'total']);
    expect(await getJson<object>(users.admin, '/api/tickets?statut=clos&limit=5')).toEqual({ tickets: [], next_cursor: null, total: 0, counts: null });
  });
});

describe('GET /api/stats/tickets?limit=', () => {
  it('walks the items page by page; summary and weekly trend cover the whole window on the first page', async () => {
    for (const user of [users.admin, users.statsGlobal]) {
      for (const url of statsUrls()) {
        const whole = await getJson<{ summary: StatsSummary; items: StatsTicketItem[] }>(user, url);
        const query = new URL(url, 'http://x').searchParams;
        const from = query.get('from') ?? '2025-06-02';
        const to = query.get('to') ?? '2025-07-01';
        for (const limit of [1, 5, 200]) {
          const label = `${url} limit=${limit}`;
          const pages = await walk(user, url, limit);
          expect(rowsOf(pages.flatMap((page) => page.items!)), label).toEqual(rowsOf(whole.items));
          expect(pages.length, label).toBe(Math.max(1, Math.ceil(whole.items.length / limit)));
          expect(pages[0]!.summary, label).toEqual(whole.summary);
          expect(JSON.stringify(pages[0]!.summary), label).toBe(JSON.stringify(whole.summary));
          expect(pages[0]!.weekly, label).toEqual(weeklyFromItems(whole.items, from, to));
          for (const page of pages) expect(page.total, label).toBe(whole.items.length);
          for (const page of pages.slice(1)) expect([page.summary, page.weekly], label).toEqual([null, null]);
        }
      }
    }
  });

  it('gives the same summary whatever the page size, and a trend with judged weeks', async () => {
    const url = '/api/stats/tickets?from=2025-01-01&to=2025-12-31';
    const first = await getJson<Page>(users.statsGlobal, `${url}&limit=1`);
    expect(first.summary!.total).toBeGreaterThan(10);
    expect(first.weekly!.some((week) => week.judged > 0 && week.pct !== null)).toBe(true);
    expect(first.weekly![0]!.week).toBe('2024-12-30');
    expect(first.weekly!.at(-1)!.week).toBe('2025-12-29');
  });
});

describe('cursors and limits', () => {
  const badRequest = async (user: TestUser, url: string, message: string) => {
    const res = await h.request(user, { method: 'GET', url });
    expect(res.statusCode, url).toBe(400);
    expect(res.json(), url).toMatchObject({ error: message });
  };

  it('refuses a limit that is not a whole number from 1 to 200', async () => {
    for (const base of ['/api/tickets', '/api/tickets/clos', '/api/stats/tickets']) {
      for (const limit of ['0', '201', '-1', '1.5', 'abc', '1e9']) await badRequest(users.adminPlus, `${base}?limit=${limit}`, PAGING_MESSAGES.invalidLimit);
      await badRequest(users.adminPlus, `${base}?cursor=abc`, PAGING_MESSAGES.cursorWithoutLimit);
    }
  });

  it('refuses a malformed or tampered cursor', async () => {
    const cases: [string, string][] = [
      ['/api/tickets', '/api/tickets'],
      ['/api/tickets/clos?date_debut=2025-01-01', '/api/tickets/clos?date_debut=2025-01-01'],
      ['/api/stats/tickets?from=2025-01-01&to=2025-12-31', '/api/stats/tickets?from=2025-01-01&to=2025-12-31'],
    ];
    for (const [url] of cases) {
      const { next_cursor: cursor } = await getJson<Page>(users.adminPlus, withPage(url, 2, null));
      expect(cursor, url).not.toBeNull();
      // The genuine cursor works.
      await getJson<Page>(users.adminPlus, withPage(url, 2, cursor));
      const decoded = JSON.parse(Buffer.from(cursor!, 'base64url').toString('utf8')) as { f: string; k: unknown[] };
      const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const tampered = [
        `${cursor!.slice(0, -2)}${cursor!.endsWith('A') ? 'B' : 'A'}A`,
        cursor!.slice(0, 20),
        'bm90LWpzb24',
        forge({ ...decoded, f: 'x'.repeat(22) }),
        forge({ ...decoded, k: decoded.k.slice(1) }),
        forge({ ...decoded, k: decoded.k.map((part) => (typeof part === 'string' ? `${part}'; DROP TABLE rm.tickets; --` : part)) }),
        ...(typeof decoded.k[0] === 'number' ? [forge({ ...decoded, k: [-1, ...decoded.k.slice(1)] }), forge({ ...decoded, k: ['0', ...decoded.k.slice(1)] })] : []),
        forge({ ...decoded, k: decoded.k.map((part) => (typeof part === 'string' && part.endsWith('Z') ? '2025-13-45T99:00:00.000000Z' : part)) }),
        forge([decoded.f, decoded.k]),
        'x'.repeat(600),
      ];
      for (const bad of tampered) await badRequest(users.adminPlus, withPage(url, 2, bad), PAGING_MESSAGES.invalidCursor);
    }
    // Other filters, another list.
    const { next_cursor: closedCursor } = await getJson<Page>(users.adminPlus, '/api/tickets/clos?date_debut=2025-01-01&limit=2');
    await badRequest(users.adminPlus, `/api/tickets/clos?date_debut=2025-01-02&limit=2&cursor=${closedCursor}`, PAGING_MESSAGES.invalidCursor);
    await badRequest(users.adminPlus, `/api/tickets/clos?date_debut=2025-01-01&devis_attente=1&limit=2&cursor=${closedCursor}`, PAGING_MESSAGES.invalidCursor);
    await badRequest(users.adminPlus, `/api/stats/tickets?from=2025-01-01&to=2025-12-31&limit=2&cursor=${closedCursor}`, PAGING_MESSAGES.invalidCursor);
    const { next_cursor: openCursor } = await getJson<Page>(users.adminPlus, '/api/tickets?limit=2');
    await badRequest(users.adminPlus, `/api/tickets?urgent=1&limit=2&cursor=${openCursor}`, PAGING_MESSAGES.invalidCursor);
    await badRequest(users.adminPlus, `/api/tickets/clos?limit=2&cursor=${openCursor}`, PAGING_MESSAGES.invalidCursor);
  });

  it('never shows an agency admin another agency’s rows through a cursor', async () => {
    // A cursor made for another scope is refused.
    const { next_cursor: allCursor } = await getJson<Page>(users.adminPlus, '/api/tickets/clos?date_debut=2025-01-01&limit=1');
    await badRequest(users.admin, `/api/tickets/clos?date_debut=2025-01-01&limit=1&cursor=${allCursor}`, PAGING_MESSAGES.invalidCursor);
    const { next_cursor: parisCursor } = await getJson<Page>(users.parisAdmin, '/api/tickets?limit=1');
    await badRequest(users.admin, `/api/tickets?limit=1&cursor=${parisCursor}`, PAGING_MESSAGES.invalidCursor);
    const { next_cursor: statsCursor } = await getJson<Page>(users.statsGlobal, `/api/stats/tickets?from=2025-01-01&to=2025-12-31&agence_id=${paris}&limit=1`);
    await badRequest(users.statsGlobal, `/api/stats/tickets?from=2025-01-01&to=2025-12-31&agence_id=${lyon}&limit=1&cursor=${statsCursor}`, PAGING_MESSAGES.invalidCursor);

    // A cursor forged on the admin's own list, pointing at a Paris ticket, still pages through Lyon only.
    const { next_cursor: own } = await getJson<Page>(users.admin, '/api/tickets/clos?date_debut=2025-01-01&limit=1');
    const decoded = JSON.parse(Buffer.from(own!, 'base64url').toString('utf8')) as { f: string; k: unknown[] };
    const parisTicket = (await getJson<{ tickets: { id: string; created_at: string; agence_id: string }[] }>(users.adminPlus, '/api/tickets/clos?date_debut=2025-01-01')).tickets.find(
      (ticket) => ticket.agence_id === paris,
    )!;
    const forged = Buffer.from(JSON.stringify({ f: decoded.f, k: [parisTicket.created_at.replace('Z', '000Z'), parisTicket.id] })).toString('base64url');
    const pages = await getJson<{ tickets: { agence_id: string }[] }>(users.admin, `/api/tickets/clos?date_debut=2025-01-01&limit=200&cursor=${forged}`);
    expect(pages.tickets.length).toBeGreaterThan(0);
    expect(new Set(pages.tickets.map((ticket) => ticket.agence_id))).toEqual(new Set([lyon]));
  });
});

describe('tickets requested at the same instant', () => {
  beforeAll(async () => {
    // Several tickets of each list share one created_at (microseconds included): the id breaks the tie.
    const instant = '2025-04-10T08:30:00.123456Z';
    await h.pool.query(`UPDATE rm.tickets SET created_at = $1 WHERE id = ANY($2::uuid[])`, [instant, ids.slice(20, 32)]);
    await h.pool.query(`UPDATE rm.ticket_sla SET created_at = $1 WHERE ticket_id = ANY($2::uuid[])`, [instant, ids.slice(20, 32)]);
  });

  it('walks every list across the tie without losing or repeating a row', async () => {
    const { rows } = await h.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm.tickets WHERE created_at = '2025-04-10T08:30:00.123456Z' AND statut = 'clos'`);
    expect(rows[0]!.n).toBeGreaterThan(3);
    for (const url of ['/api/tickets', '/api/tickets/clos?date_debut=2025-01-01']) await expectListWalks(users.adminPlus, url, [1, 2]);
    const url = '/api/stats/tickets?from=2025-01-01&to=2025-12-31';
    const whole = await getJson<{ items: StatsTicketItem[] }>(users.statsGlobal, url);
    for (const limit of [1, 2]) expect(rowsOf((await walk(users.statsGlobal, url, limit)).flatMap((page) => page.items!))).toEqual(rowsOf(whole.items));
  });
});

describe('the API reference', () => {
  it('documents limit and cursor on the three routes, and the paged answers', async () => {
    type Operation = { parameters?: { in: string; name: string; description?: string }[]; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
    const doc = await getJson<{ paths: Record<string, Record<string, Operation>> }>(users.adminPlus, '/api/docs/json');
    for (const path of ['/api/tickets', '/api/tickets/clos', '/api/stats/tickets']) {
      const operation = doc.paths[path]?.get;
      for (const name of ['limit', 'cursor']) {
        const parameter = operation?.parameters?.find((p) => p.in === 'query' && p.name === name);
        expect(parameter?.description, `${path} ${name}`).toBeTruthy();
      }
      expect(JSON.stringify(operation?.responses?.['200']), path).toContain('next_cursor');
    }
    expect(JSON.stringify(doc.paths['/api/tickets']?.get?.responses?.['200'])).toContain('interventions');
    expect(JSON.stringify(doc.paths['/api/stats/tickets']?.get?.responses?.['200'])).toContain('weekly');
  });
});
