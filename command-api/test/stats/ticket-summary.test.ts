import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketSummaryResponseSchema, type TicketSummaryResponse } from '@fsm/contracts';
import { createTwoAgencyWorld, type ApiHarness, type TestUser, type TwoAgencyWorld } from '../../src/test-support/api-harness.js';
import { ticketSeed } from './ticket-seed.js';

let h: ApiHarness;

// The 30-day window at this instant: 2025-06-02 to 2025-07-01 (Paris).
const now = new Date('2025-07-01T10:00:00.000Z');
const lea = { id: randomUUID(), prenom: 'Léa', nom: 'Martin' };
let lyon: string;
let paris: string;

async function seedTickets(world: TwoAgencyWorld): Promise<void> {
  const seed = ticketSeed(world.h);
  const metier = await seed.metier(1);
  const open = (agenceId: string, openedAt: string, urgent = false) => seed.open({ agenceId, metier, openedAt, urgent });

  // Lyon: two open (one urgent), one in progress, one re-intervention asking for a quote,
  await open(world.lyon, '2025-06-28T08:00:00.000Z');
  await open(world.lyon, '2025-06-28T20:00:00.000Z', true);
  const enCours = await open(world.lyon, '2025-06-27T08:00:00.000Z');
  await seed.take(enCours, lea, '2025-06-27T08:10:00.000Z');
  const intervention = await open(world.lyon, '2025-06-26T08:00:00.000Z');
  await seed.take(intervention, lea, '2025-06-26T08:10:00.000Z');
  await seed.reintervene(intervention, { arriveAt: '2025-06-26T09:00:00.000Z', closedAt: '2025-06-26T10:00:00.000Z', devis: 1 });
  // closed after 2 h with a pending quote (on time: echeance 4 h), closed after 72 h (late),
  const quick = await open(world.lyon, '2025-06-10T08:00:00.000Z');
  await seed.take(quick, lea, '2025-06-10T08:10:00.000Z');
  await seed.close(quick, { arriveAt: '2025-06-10T09:00:00.000Z', closedAt: '2025-06-10T10:00:00.000Z', devis: 1 });
  const slow = await open(world.lyon, '2025-06-12T08:00:00.000Z');
  await seed.take(slow, lea, '2025-06-12T08:10:00.000Z');
  await seed.close(slow, { arriveAt: '2025-06-15T07:00:00.000Z', closedAt: '2025-06-15T08:00:00.000Z' });
  // and one requested and closed before the window: in neither the tiles nor the statistics.
  const old = await open(world.lyon, '2025-05-01T08:00:00.000Z');
  await seed.take(old, lea, '2025-05-01T08:10:00.000Z');
  await seed.close(old, { arriveAt: '2025-05-01T09:00:00.000Z', closedAt: '2025-05-02T08:00:00.000Z' });
  // Paris: one open ticket.
  await open(world.paris, '2025-06-29T08:00:00.000Z');
}

beforeAll(async () => {
  ({ h, lyon, paris } = await createTwoAgencyWorld('api_ticket_summary', { now, seedTickets }));
});
afterAll(async () => h?.close());

async function summary(user: TestUser | null): Promise<{ status: number; body: TicketSummaryResponse & { error?: string } }> {
  const res = await h.request(user, { method: 'GET', url: '/api/tickets/summary' });
  return { status: res.statusCode, body: res.json() };
}

describe('GET /api/tickets/summary', () => {
  it('answers every tile’s count and the 30-day statistics for the caller’s agency', async () => {
    const tech = await h.createUser({ role: 'technicien', agenceId: lyon });
    const { status, body } = await summary(tech);
    expect(status).toBe(200);
    expect(ticketSummaryResponseSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      counts: { clos: 2, urgent: 1, intervention: 1, ouvert: 2, en_cours: 1, devis_attente: 1, clos_devis_attente: 1 },
      stats: {
        from: '2025-06-02',
        to: '2025-07-01',
        created: 6,
        closed: 2,
        // (2 h + 72 h) / 2 = 37 h.
        mean_closing_ms: 37 * 3_600_000,
        mean_closing_time: '1j 13h',
        performance: { pct: 50, count: 1, total: 2 },
      },
    });
  });

  it('covers every agency for admin_plus', async () => {
    const adminPlus = await h.createUser({ role: 'admin_plus', agenceId: paris });
    const { body } = await summary(adminPlus);
    expect(body.counts).toMatchObject({ ouvert: 3, clos: 2 });
    expect(body.stats.created).toBe(7);
  });

  it('shows an em dash and no percentage with nothing closed', async () => {
    const parisTech = await h.createUser({ role: 'technicien', agenceId: paris });
    const { body } = await summary(parisTech);
    expect(body.counts).toEqual({ clos: 0, urgent: 0, intervention: 0, ouvert: 1, en_cours: 0, devis_attente: 0, clos_devis_attente: 0 });
    expect(body.stats).toMatchObject({ created: 1, closed: 0, mean_closing_ms: null, mean_closing_time: '—', performance: { pct: null, count: 0, total: 0 } });
  });

  it('refuses télésurveillance accounts and anonymous callers', async () => {
    const telesurv = await h.createUser({ role: 'telesurveillance', telesurvAgences: [lyon] });
    const res = await summary(telesurv);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Accès refusé.');
    expect((await summary(null)).status).toBe(401);
  });
});
