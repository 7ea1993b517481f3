import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  CSV_BOM,
  CSV_LINE_END,
  STATS_CSV_HEADER,
  defaultStatsWindow,
  formatStatsCsvDate,
  statsCsvRow,
  statsTicketsResponseSchema,
  summarizeStats,
  toCsvLine,
  type StatsTicketItem,
} from '@fsm/contracts';
import {
  findTicket,
  searchClosedTickets,
  statsCsvPages,
  statsTicketPages,
  type AgenceScope,
  type StatsCsvItem,
  type StatsTicketsFilters,
} from '@fsm/projections';
import { photoSignerOf } from '../src/files/file-links.js';
import { ticketListAnswerSchema } from '../src/routes/tickets/ticket-route-schemas.js';
import { createTwoAgencyWorld, type ApiHarness, type TestUser, type TwoAgencyWorld } from '../src/test-support/api-harness.js';
import { ticketSeed } from './stats/ticket-seed.js';

/*
 * The big read answers (open list, closed search, statistics and their CSV)
 * now come from Postgres already in the answer's shape, and the routes
 * JSON.stringify them without the zod response schema (ticket-answer-sql.ts,
 * ticket-sla-queries.ts). Before, each row was mapped in JS (toTicket,
 * toItem, statsCsvRow with date-fns) and serialised through the schema.
 * Those mappings are still in use — toTicket for a ticket's detail
 * (findTicket), toItem for the workers' pages (statsTicketPages) — so they are
 * the reference here: every answer of the routes must be byte for byte what
 * the old path writes for the same tickets, clock and scope (same keys in the
 * same order, nulls, numbers, computed fields: minutes_ecoulees,
 * interventions_count, photo, flags, summary), on tickets made through the
 * deciders and projectors, then given the awkward values real data can hold.
 * Which tickets a list holds and in what order is the same SQL as before
 * (openSelection, closedSelection, statsSelection), tested elsewhere.
 */

let h: ApiHarness;
const now = new Date('2025-07-01T10:00:00.000Z');
let lyon: string;
let paris: string;
let users: Record<'admin' | 'technicien' | 'adminPlus' | 'statsGlobal', TestUser>;
const ids: string[] = [];
const technicien = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };

/** What the routes sent before: the zod serializer of the route's response schema. */
function oldSerializer(schema: z.ZodType): (data: unknown) => string {
  return serializerCompiler({ schema, method: 'GET', url: '/' } as never) as (data: unknown) => string;
}
const oldTicketList = oldSerializer(ticketListAnswerSchema);
const oldStats = oldSerializer(statsTicketsResponseSchema);

/** The old list answer for the tickets of `body`, in its order: each ticket mapped by toTicket (findTicket), through the zod serializer. */
async function oldListOf(body: string, scope: AgenceScope): Promise<string> {
  const listed = (JSON.parse(body) as { tickets: { id: string }[] }).tickets;
  // The API signs each photo link (issue 32, item 11) whichever way the answer is written.
  const signPhoto = photoSignerOf(h.deps);
  return oldTicketList({ tickets: await Promise.all(listed.map(async ({ id }) => signPhoto((await findTicket(h.pool, scope, id, now))!))) });
}

/** The old statistics answer: the items mapped by toItem (statsTicketPages, one page), summarised, through the zod serializer. */
async function oldStatsOf(scope: AgenceScope, window: StatsTicketsFilters): Promise<string> {
  const items: StatsTicketItem[] = [];
  for await (const page of statsTicketPages(h.pool, scope, window, now, 1_000_000)) items.push(...page);
  return oldStats({ summary: summarizeStats(items), items });
}

/** Names a spreadsheet or a JSON encoder must treat with care. */
const AWKWARD = [
  'Clinique "Les Pins"; Lyon',
  '=SOMME(A1)',
  '+33 6 01 02 03 04',
  '-moins',
  '@arobase',
  '\tTabulé',
  '\rRetour',
  'Ligne 1\nLigne 2',
  'Anti\\slash \u0001\u001f\u007f \b\f',
  'Émoji 🔥 et séparateur\u2028de ligne',
  "L'Hôpital (Nord) *",
];
const awkward = (i: number) => AWKWARD[i % AWKWARD.length]!;

async function seedTickets(world: TwoAgencyWorld): Promise<void> {
  const seed = ticketSeed(world.h);
  const working = await seed.metier(0);
  const calendar = await seed.metier(1);
  const start = Date.parse('2025-03-01T07:13:00.000Z');
  for (let i = 0; i < 36; i++) {
    const openedAt = new Date(start + i * 3.3 * 86_400_000 + i * 1_234_567).toISOString();
    const at = (hours: number) => new Date(Date.parse(openedAt) + hours * 3_600_000).toISOString();
    const id = await seed.open({
      agenceId: i % 3 === 0 ? world.paris : world.lyon,
      metier: i % 5 === 0 ? null : i % 2 === 0 ? working : calendar,
      openedAt,
      delai: [4, null, 2.5, 0.1 + 0.2, 48][i % 5],
      clientNom: awkward(i),
      siteNom: awkward(i + 3),
      installationNom: awkward(i + 7),
      numChrono: i % 7 === 0 ? `=LYO-2025-${i}` : `LYO-2025-${String(i).padStart(5, '0')}`,
      urgent: i % 6 === 0,
    });
    ids.push(id);
    const step = i % 6;
    await seed.cycle(id, step, technicien, at, { late: i % 4 === 0, devis: step === 3 ? 1 : 0 });
    if (step === 3 && i % 4 === 1) await seed.validateQuote(id, '2025-06-18');
  }
}

/** Values the routes cannot write but a read model may hold: odd references, sub-millisecond instants, empty names. */
async function giveAwkwardValues({ pool }: ApiHarness): Promise<void> {
  const set = async (i: number, sql: string, params: unknown[] = []) => {
    await pool.query(`UPDATE rm.tickets SET ${sql} WHERE id = $1`, [ids[i], ...params]);
  };
  const setBoth = async (i: number, sql: string) => {
    await pool.query(`UPDATE rm.tickets SET ${sql} WHERE id = $1`, [ids[i]]);
    await pool.query(`UPDATE rm.ticket_sla SET ${sql} WHERE ticket_id = $1`, [ids[i]]);
  };
  // Photos: a file-store reference, one encodeURIComponent must encode, one with unreserved punctuation.
  await set(0, 'photo_ref = $2', [`${'ab12'.repeat(16)}.jpg`]);
  await set(1, 'photo_ref = $2', ['photo à/é?&=#%.jpg']);
  await set(3, 'photo_ref = $2', ["it's(1)*!~-_.png"]);
  // Microseconds (pg and to_char both keep the milliseconds, truncated).
  await setBoth(4, `created_at = created_at + interval '123.456789 milliseconds'`);
  await setBoth(9, `clos_at = clos_at + interval '999.999 milliseconds'`);
  // Both daylight-saving changes in Paris, at the minute either side.
  await setBoth(10, `created_at = '2025-03-30T00:59:59.999Z'`);
  await setBoth(16, `created_at = '2025-03-30T01:00:00.000Z'`);
  await setBoth(15, `clos_at = '2025-10-26T00:59:30.000Z'`);
  await setBoth(21, `clos_at = '2025-10-26T01:00:00.000Z'`);
  // Opened after `now` (minutes_ecoulees stays 0), operator known, technician names empty or awkward.
  await setBoth(12, `created_at = '2025-07-01T10:00:30.000Z'`);
  await set(6, `operateur_prenom = 'Zoé', operateur_nom = '"Op"', technicien_prenom = '', technicien_nom = '@Dupont'`);
  await set(13, `technicien_prenom = NULL, technicien_nom = ''`);
  await set(7, `probleme = $2, constat_tech = $3, temps_trajet = '01:30'`, ['\b\f\n\r\t\u0001"\\/ fin', 'Constat ; "vu"']);
}

beforeAll(async () => {
  ({ h, lyon, paris, users } = await createTwoAgencyWorld('api_sql_built_answers', {
    now,
    seedTickets: async (world) => {
      await seedTickets(world);
      await giveAwkwardValues(world.h);
    },
    users: (world) => ({
      admin: { role: 'admin', agenceId: world.lyon },
      technicien: { role: 'technicien_plus', agenceId: world.paris },
      adminPlus: { role: 'admin_plus', agenceId: world.paris },
      statsGlobal: { role: 'admin', agenceId: world.lyon, permissions: ['tickets.stats-global'] },
    }),
  }));
}, 120_000);
afterAll(async () => h?.close());

async function answer(user: TestUser, url: string): Promise<string> {
  const res = await h.request(user, { method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return res.body;
}

function expectSameText(actual: string, expected: string, label: string): void {
  // A first difference shown in context is easier to read than two 50 kB strings.
  if (actual !== expected) {
    let at = 0;
    while (actual[at] === expected[at]) at++;
    expect(actual.slice(Math.max(0, at - 120), at + 120), `${label}: first difference at ${at}`).toBe(expected.slice(Math.max(0, at - 120), at + 120));
  }
  expect(actual.length, label).toBe(expected.length);
}

describe('the seeded data', () => {
  it('holds every case the comparisons are about', async () => {
    const { rows } = await h.pool.query<Record<string, number>>(
      `SELECT count(*) FILTER (WHERE statut = 'ouvert')::int AS ouvert, count(*) FILTER (WHERE statut = 'en_cours')::int AS en_cours,
              count(*) FILTER (WHERE statut = 'intervention')::int AS intervention, count(*) FILTER (WHERE statut = 'clos')::int AS clos,
              count(*) FILTER (WHERE interventions_supp_count > 0 AND statut = 'clos')::int AS clos_reintervenu,
              count(*) FILTER (WHERE numero_devis IS NOT NULL)::int AS devis_valide, count(*) FILTER (WHERE devis = 1 AND numero_devis IS NULL)::int AS devis_attente,
              count(*) FILTER (WHERE delai IS NULL)::int AS sans_delai, count(*) FILTER (WHERE delai <> trunc(delai))::int AS delai_decimal,
              count(*) FILTER (WHERE photo_ref IS NOT NULL)::int AS photos, count(*) FILTER (WHERE metier_id IS NULL)::int AS sans_metier
       FROM rm.tickets`,
    );
    for (const [what, count] of Object.entries(rows[0]!)) expect(count, what).toBeGreaterThan(0);
  });
});

describe('GET /api/tickets and /api/tickets/clos', () => {
  const openQueries = ['', '?statut=ouvert', '?statut=en_cours', '?statut=intervention', '?urgent=1', '?devis_attente=1'];

  it('sends the open list the old path wrote, for an agency and for admin_plus', async () => {
    for (const [user, scope] of [
      [users.admin, [lyon]],
      [users.technicien, [paris]],
      [users.adminPlus, 'all'],
    ] as const) {
      for (const query of openQueries) {
        const body = await answer(user, `/api/tickets${query}`);
        expectSameText(body, await oldListOf(body, scope), `open ${query} ${String(scope)}`);
      }
    }
    // Not a vacuous comparison.
    expect(JSON.parse(await answer(users.adminPlus, '/api/tickets')).tickets.length).toBeGreaterThan(15);
  });

  it('sends the closed search the old path wrote, with each filter', async () => {
    const closed = await searchClosedTickets(h.pool, 'all', now, { date_debut: '2025-01-01', date_fin: '2025-12-31' });
    const any = closed.find((ticket) => ticket.metier_id !== null)!;
    const searches = [
      '',
      '?date_debut=2025-01-01&date_fin=2025-12-31',
      '?date_debut=2025-03-30',
      '?date_fin=2025-04-15',
      ...(['client_id', 'site_id', 'installation_id', 'metier_id'] as const).map((key) => `?date_debut=2025-01-01&${key}=${any[key]}`),
      `?date_debut=2025-01-01&technicien_id=${technicien.id}`,
      '?date_debut=2025-01-01&devis_attente=1',
    ];
    for (const [user, scope] of [
      [users.admin, [lyon]],
      [users.adminPlus, 'all'],
    ] as const) {
      for (const query of searches) {
        const body = await answer(user, `/api/tickets/clos${query}`);
        expectSameText(body, await oldListOf(body, scope), `closed ${query} ${String(scope)}`);
      }
    }
    expect(closed.length).toBeGreaterThan(10);
    expect(JSON.parse(await answer(users.admin, '/api/tickets/clos')).tickets.length).toBeGreaterThan(2);
  });

  it('still answers with a JSON content type that fits the contract', async () => {
    const res = await h.request(users.adminPlus, { method: 'GET', url: '/api/tickets/clos?date_debut=2025-01-01' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(ticketListAnswerSchema.parse(body)).toEqual(body);
    const photos = body.tickets.map((ticket: { photo: string | null }) => ticket.photo).filter(Boolean);
    const unsigned = (url: string) => url.replace(/\?exp=\d+&sig=[\w-]+$/, '');
    expect(photos.map(unsigned)).toContain(`/api/files/${encodeURIComponent("it's(1)*!~-_.png")}`);
    expect(JSON.parse(await answer(users.adminPlus, '/api/tickets')).tickets.map((t: { photo: string | null }) => t.photo && unsigned(t.photo))).toContain(
      `/api/files/${encodeURIComponent('photo à/é?&=#%.jpg')}`,
    );
  });
});

describe('GET /api/stats/tickets and its CSV', () => {
  const windows: [string, StatsTicketsFilters][] = [
    ['', defaultStatsWindow(now)],
    ['?from=2025-01-01&to=2025-12-31', { from: '2025-01-01', to: '2025-12-31' }],
    ['?from=2025-03-30&to=2025-03-30', { from: '2025-03-30', to: '2025-03-30' }],
    ['?from=2024-01-01&to=2024-01-31', { from: '2024-01-01', to: '2024-01-31' }],
  ];
  const scopes = (): [TestUser, string, AgenceScope][] => [
    [users.admin, '', [lyon]],
    [users.statsGlobal, '', 'all'],
    [users.statsGlobal, `&agence_id=${paris}`, [paris]],
  ];

  it('sends the statistics the old path wrote: items, flags and summary', async () => {
    const metier = (await h.pool.query<{ id: string }>('SELECT metier_id AS id FROM rm.ticket_sla WHERE metier_id IS NOT NULL LIMIT 1')).rows[0]!.id;
    for (const [user, agence, scope] of scopes()) {
      for (const [query, window] of [...windows, [`?from=2025-01-01&to=2025-12-31&metier_id=${metier}`, { from: '2025-01-01', to: '2025-12-31', metier_id: metier }] as const]) {
        const url = `/api/stats/tickets${query || '?'}${agence}`;
        expectSameText(await answer(user, url), await oldStatsOf(scope, window), url);
      }
    }
    const year = JSON.parse(await answer(users.statsGlobal, '/api/stats/tickets?from=2025-01-01&to=2025-12-31'));
    expect(year.items.length).toBe(ids.length);
    expect(year.summary.total).toBeGreaterThan(0);
    expect(year.summary.devis_eligible).toBeGreaterThan(0);
  });

  it('streams the CSV lines the old path wrote', async () => {
    for (const [user, agence, scope] of scopes()) {
      for (const [query, window] of windows) {
        let expected = CSV_BOM + toCsvLine(STATS_CSV_HEADER) + CSV_LINE_END;
        for await (const page of statsTicketPages(h.pool, scope, window, now)) expected += page.map((item) => toCsvLine(statsCsvRow(item)) + CSV_LINE_END).join('');
        const url = `/api/stats/tickets.csv${query || '?'}${agence}`;
        const res = await h.request(user, { method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expectSameText(res.rawPayload.toString('utf8'), expected, url);
      }
    }
    // The clock changes are in the compared files: Paris minutes either side of each.
    const year = (await h.request(users.statsGlobal, { method: 'GET', url: '/api/stats/tickets.csv?from=2025-01-01&to=2025-12-31' })).body;
    for (const minute of ['30/03/2025 01:59', '30/03/2025 03:00', '26/10/2025 02:59', '26/10/2025 02:00']) expect(year).toContain(minute);
  });

  it('pages the CSV items like the items, ties and small pages included', async () => {
    const window = { from: '2025-01-01', to: '2025-12-31' };
    await h.pool.query(`UPDATE rm.ticket_sla SET created_at = '2025-05-05T05:05:05.000Z' WHERE ticket_id = ANY($1::uuid[])`, [ids.slice(20, 26)]);
    for (const pageSize of [1, 4, 7, 1000]) {
      const csvPages: StatsCsvItem[][] = [];
      for await (const page of statsCsvPages(h.pool, 'all', window, now, pageSize)) csvPages.push(page);
      const itemPages: StatsTicketItem[][] = [];
      for await (const page of statsTicketPages(h.pool, 'all', window, now, pageSize)) itemPages.push(page);
      expect(csvPages.map((page) => page.map((item) => item.id))).toEqual(itemPages.map((page) => page.map((item) => item.id)));
      expect(csvPages.flat()).toEqual(
        itemPages.flat().map(({ created_at, clos_at, ...item }) => ({
          ...item,
          cree_le: formatStatsCsvDate(created_at),
          cloture_le: formatStatsCsvDate(clos_at),
          cursor_created_at: expect.any(String),
        })),
      );
    }
    const none: StatsCsvItem[][] = [];
    for await (const page of statsCsvPages(h.pool, [], window, now)) none.push(page);
    expect(none).toEqual([]);
  });
});
