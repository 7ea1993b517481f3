import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATS_CSV_HEADER, defaultPermissionsForRole, statsTicketsResponseSchema, type StatsTicketsResponse } from '@fsm/contracts';
import { createTwoAgencyWorld, type ApiHarness, type TestUser, type TwoAgencyWorld } from '../../src/test-support/api-harness.js';
import { ticketSeed } from './ticket-seed.js';

let h: ApiHarness;
let seed: ReturnType<typeof ticketSeed>;

// Default window at this instant: 2025-06-02 to 2025-07-01 (Paris).
const now = new Date('2025-07-01T10:00:00.000Z');
const lea = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };

let lyon: string;
let paris: string;
const t: Record<'L0' | 'L1' | 'L2' | 'L3' | 'L4' | 'P1', string> = { L0: '', L1: '', L2: '', L3: '', L4: '', P1: '' };
let working: { id: string; nom: string };
let users: Record<'statsLyon' | 'technicien' | 'telesurv' | 'global' | 'adminPlus', TestUser>;

/** Lyon's tickets L0 to L4 and Paris's P1, each named for what it proves. */
async function seedTickets(world: TwoAgencyWorld): Promise<void> {
  seed = ticketSeed(world.h);
  working = await seed.metier(0);
  const calendar = await seed.metier(1);

  // L0: before the default window.
  t.L0 = await seed.open({ agenceId: world.lyon, metier: calendar, openedAt: '2025-05-20T08:00:00.000Z' });
  // L1: Friday 13 June 21:00 Paris, 4 h on working days, arrival Monday 00:30: on time; quote registered within 5 days.
  t.L1 = await seed.open({
    agenceId: world.lyon,
    metier: working,
    openedAt: '2025-06-13T19:00:00.000Z',
    clientNom: 'Clinique "Les Pins"; Lyon',
    installationNom: '=SSI',
  });
  await seed.take(t.L1, lea, '2025-06-13T19:10:00.000Z');
  await seed.close(t.L1, { arriveAt: '2025-06-15T22:30:00.000Z', closedAt: '2025-06-15T23:30:00.000Z', devis: 1 });
  await seed.validateQuote(t.L1, '2025-06-18');
  // L2: calendar clock, arrival after 12 h: late; quote never registered, 5 days past: Non.
  t.L2 = await seed.open({ agenceId: world.lyon, metier: calendar, openedAt: '2025-06-14T08:00:00.000Z' });
  await seed.take(t.L2, lea, '2025-06-14T08:10:00.000Z');
  await seed.close(t.L2, { arriveAt: '2025-06-14T20:00:00.000Z', closedAt: '2025-06-14T21:00:00.000Z', devis: 1 });
  // L3: still open, its 4 h long gone: Non; no quote: N/A.
  t.L3 = await seed.open({ agenceId: world.lyon, metier: calendar, openedAt: '2025-06-20T08:00:00.000Z' });
  // L4: no delay: N/A, N/A.
  t.L4 = await seed.open({ agenceId: world.lyon, metier: calendar, openedAt: '2025-06-21T08:00:00.000Z', delai: null });
  // P1: Paris, on time.
  t.P1 = await seed.open({ agenceId: world.paris, metier: working, openedAt: '2025-06-10T08:00:00.000Z' });
  await seed.take(t.P1, lea, '2025-06-10T08:05:00.000Z');
  await seed.close(t.P1, { arriveAt: '2025-06-10T10:00:00.000Z', closedAt: '2025-06-10T11:00:00.000Z' });
}

beforeAll(async () => {
  ({ h, lyon, paris, users } = await createTwoAgencyWorld('api_stats', {
    now,
    seedTickets,
    users: (world) => ({
      statsLyon: { role: 'technicien_plus', agenceId: world.lyon },
      technicien: { role: 'technicien', agenceId: world.lyon },
      telesurv: { role: 'telesurveillance', telesurvAgences: [world.lyon] },
      global: { role: 'admin', agenceId: world.lyon, permissions: [...defaultPermissionsForRole('admin'), 'tickets.stats-global'] },
      adminPlus: { role: 'admin_plus', agenceId: world.paris },
    }),
  }));
});
afterAll(async () => h?.close());

async function stats(user: TestUser | null, query = ''): Promise<{ status: number; body: StatsTicketsResponse & { error?: string } }> {
  const res = await h.request(user, { method: 'GET', url: `/api/stats/tickets${query}` });
  return { status: res.statusCode, body: res.json() };
}

describe('GET /api/stats/tickets', () => {
  it('answers tickets.stats with its own agency over the default 30 days, flags and summary known', async () => {
    const { status, body } = await stats(users.statsLyon);
    expect(status).toBe(200);
    expect(statsTicketsResponseSchema.parse(body)).toEqual(body);
    expect(body.items.map((item) => [item.id, item.sla_ok, item.devis_ok])).toEqual([
      [t.L4, null, null],
      [t.L3, false, null],
      [t.L2, false, false],
      [t.L1, true, true],
    ]);
    expect(body.summary).toEqual({ sla_pct: 33.3, sla_ok: 1, total: 3, devis_pct: 50, devis_ok: 1, devis_eligible: 2 });
    expect(body.items[3]).toEqual({
      id: t.L1,
      num_chrono: `LYO-2025-${t.L1.slice(0, 5)}`,
      client_nom: 'Clinique "Les Pins"; Lyon',
      site_nom: 'Bâtiment A',
      installation_nom: '=SSI',
      technicien_prenom: 'Léa',
      technicien_nom: 'Martin',
      created_at: '2025-06-13T19:00:00.000Z',
      clos_at: '2025-06-15T23:30:00.000Z',
      sla_ok: true,
      devis_ok: true,
      interventions_count: 1,
    });
    // Its own agency named explicitly is fine; another one is refused, not narrowed.
    expect((await stats(users.statsLyon, `?agence_id=${lyon}`)).body.items).toHaveLength(4);
    const other = await stats(users.statsLyon, `?agence_id=${paris}`);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('Accès refusé.');
  });

  it('answers tickets.stats-global with every agency, or the chosen one', async () => {
    const all = await stats(users.global);
    expect(all.status).toBe(200);
    expect(all.body.items.map((item) => item.id)).toEqual([t.L4, t.L3, t.L2, t.L1, t.P1]);
    expect(all.body.summary).toMatchObject({ sla_ok: 2, total: 4, sla_pct: 50 });
    expect((await stats(users.global, `?agence_id=${paris}`)).body.items.map((item) => item.id)).toEqual([t.P1]);
    expect((await stats(users.adminPlus, `?agence_id=${lyon}&metier_id=${working.id}`)).body.items.map((item) => item.id)).toEqual([t.L1]);
    expect((await stats(users.adminPlus, `?metier_id=${working.id}`)).body.items.map((item) => item.id)).toEqual([t.L1, t.P1]);
    // 'Toutes' and 'Tous' arrive empty.
    expect((await stats(users.adminPlus, '?agence_id=&metier_id=')).body.items).toHaveLength(5);
  });

  it('refuses users without a stats permission, télésurveillance included, and anonymous callers', async () => {
    for (const user of [users.technicien, users.telesurv]) {
      const res = await stats(user);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Accès refusé.');
    }
    expect((await stats(null)).status).toBe(401);
  });

  it('takes the chosen window, whole Paris days', async () => {
    const may = await stats(users.statsLyon, '?from=2025-05-01&to=2025-05-31');
    expect(may.body.items.map((item) => item.id)).toEqual([t.L0]);
    // 13 June 21:00 Paris is 19:00 UTC: a window ending on the 13th includes it.
    expect((await stats(users.statsLyon, '?from=2025-06-13&to=2025-06-13')).body.items.map((item) => item.id)).toEqual([t.L1]);
    expect((await stats(users.statsLyon, '?from=2025-06-14')).body.items.map((item) => item.id)).toEqual([t.L4, t.L3, t.L2]);
    const empty = await stats(users.statsLyon, '?from=2024-01-01&to=2024-01-31');
    expect(empty.body).toEqual({ summary: { sla_pct: null, sla_ok: 0, total: 0, devis_pct: null, devis_ok: 0, devis_eligible: 0 }, items: [] });
  });

  it('answers 400 in French for a bad filter', async () => {
    const inverted = await stats(users.statsLyon, '?from=2025-07-01&to=2025-06-01');
    expect(inverted.status).toBe(400);
    expect(inverted.body.error).toBe('La date de début doit précéder la date de fin.');
    const badDay = await stats(users.statsLyon, '?from=01/06/2025');
    expect(badDay.status).toBe(400);
    expect(badDay.body.error).toBe('La date doit être au format AAAA-MM-JJ.');
    const badId = await stats(users.global, '?metier_id=abc');
    expect(badId.status).toBe(400);
    expect(badId.body.error).toBe('Filtre invalide.');
  });

  it('re-evaluates the flags when a trade’s HO_stats flips', async () => {
    await seed.setHoStats(working, 1);
    try {
      const item = (await stats(users.statsLyon)).body.items.find((candidate) => candidate.id === t.L1);
      // 51.5 calendar hours for a 4 h delay.
      expect(item?.sla_ok).toBe(false);
    } finally {
      await seed.setHoStats(working, 0);
    }
    expect((await stats(users.statsLyon)).body.items.find((candidate) => candidate.id === t.L1)?.sla_ok).toBe(true);
  });
});

describe('GET /api/stats/tickets.csv', () => {
  it('streams the spec’s file: BOM, header, ";" with quoting, Paris dates, Oui/Non/N/A', async () => {
    const res = await h.request(users.statsLyon, { method: 'GET', url: '/api/stats/tickets.csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="stats_tickets_2025-07-01.csv"');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = res.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    const chrono = (id: string) => `LYO-2025-${id.slice(0, 5)}`;
    expect(lines).toEqual([
      'Ticket ID;N° Chrono;Client;Site;Installation;Technicien;Créé le;Clôturé le;Respect délai intervention;Respect délai devis;Interventions',
      `${t.L4};${chrono(t.L4)};Hôpital Nord;Bâtiment A;SSI cat. A;;21/06/2025 10:00;;N/A;N/A;0`,
      `${t.L3};${chrono(t.L3)};Hôpital Nord;Bâtiment A;SSI cat. A;;20/06/2025 10:00;;Non;N/A;0`,
      `${t.L2};${chrono(t.L2)};Hôpital Nord;Bâtiment A;SSI cat. A;Léa Martin;14/06/2025 10:00;14/06/2025 23:00;Non;Non;1`,
      // Quotes doubled inside a quoted cell; a leading '=' is defused for spreadsheets.
      `${t.L1};${chrono(t.L1)};"Clinique ""Les Pins""; Lyon";Bâtiment A;'=SSI;Léa Martin;13/06/2025 21:00;16/06/2025 01:30;Oui;Oui;1`,
      '',
    ]);
    expect(lines[0]).toBe(STATS_CSV_HEADER.join(';'));
  });

  it('applies the same filters and scope rules as the JSON answer', async () => {
    const paris1 = await h.request(users.global, { method: 'GET', url: `/api/stats/tickets.csv?agence_id=${paris}` });
    expect(paris1.rawPayload.toString('utf8').split('\r\n').slice(1, -1).map((line) => line.split(';')[0])).toEqual([t.P1]);
    const empty = await h.request(users.statsLyon, { method: 'GET', url: '/api/stats/tickets.csv?from=2024-01-01&to=2024-01-31' });
    expect(empty.rawPayload.toString('utf8')).toBe(`\uFEFF${STATS_CSV_HEADER.join(';')}\r\n`);
    for (const user of [users.technicien, users.telesurv]) {
      const res = await h.request(user, { method: 'GET', url: '/api/stats/tickets.csv' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Accès refusé.');
    }
    const forged = await h.request(users.statsLyon, { method: 'GET', url: `/api/stats/tickets.csv?agence_id=${paris}` });
    expect(forged.statusCode).toBe(403);
    const bad = await h.request(users.statsLyon, { method: 'GET', url: '/api/stats/tickets.csv?to=2025-13-45x' });
    expect(bad.statusCode).toBe(400);
  });

  it('names the file after the export day in Paris', async () => {
    h.setNow(new Date('2025-06-30T22:30:00.000Z'));
    try {
      const res = await h.request(users.statsLyon, { method: 'GET', url: '/api/stats/tickets.csv' });
      expect(res.headers['content-disposition']).toBe('attachment; filename="stats_tickets_2025-07-01.csv"');
    } finally {
      h.setNow(now);
    }
  });
});
