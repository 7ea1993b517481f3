import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDED_ANSWER_MESSAGES, summarizeStats, type StatsTicketItem, type Ticket } from '@fsm/contracts';
import { HEAVY_READS_RETRY_AFTER_SECONDS } from '../src/http/heavy-reads.js';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { ticketSeed } from './stats/ticket-seed.js';

/*
 * Issue 28, item 1: the unpaged answers keep their shape, but above
 * UNPAGED_ROWS_MAX rows they answer 422 (French, before any row), and heavy
 * reads run a few at a time (429 with Retry-After past the limit). Here the
 * ceiling is 6 tickets, 1 heavy read per user and 2 per instance.
 */

let h: ApiHarness;
const now = new Date('2025-07-01T10:00:00.000Z');
let agence: string;
let admin: TestUser;
let other: TestUser;
let third: TestUser;
const CEILING = 6;

beforeAll(async () => {
  h = await createApiHarness('api_bounded_answers', { env: { UNPAGED_ROWS_MAX: String(CEILING), HEAVY_READS_PER_USER: '1', HEAVY_READS_PER_INSTANCE: '2' } });
  h.setNow(now);
  agence = await h.createAgence('Agence de Lyon');
  const seed = ticketSeed(h);
  const metier = await seed.metier(1, 'Désenfumage');
  const technicien = { id: '6d1f3a52-8c1e-4f0e-9a51-3b2f6c7d8e90', prenom: 'Léa', nom: 'Martin' };
  // 12 tickets in June, every other day from 2 June: the first 7 closed, the last 5 open.
  for (let i = 0; i < 12; i++) {
    const openedAt = new Date(Date.parse('2025-06-02T08:00:00.000Z') + i * 2 * 86_400_000).toISOString();
    const id = await seed.open({ agenceId: agence, metier, openedAt, numChrono: `LYO-2025-${String(i).padStart(5, '0')}` });
    if (i < 7) {
      const at = (hours: number) => new Date(Date.parse(openedAt) + hours * 3_600_000).toISOString();
      await seed.take(id, technicien, at(1));
      await seed.close(id, { arriveAt: at(2), closedAt: at(3) });
    }
  }
  admin = await h.createUser({ role: 'admin', agenceId: agence });
  other = await h.createUser({ role: 'admin', agenceId: agence });
  third = await h.createUser({ role: 'admin', agenceId: agence });
}, 120_000);
afterAll(async () => h?.close());

const get = (user: TestUser, url: string) => h.request(user, { method: 'GET', url });

describe('the row ceiling (UNPAGED_ROWS_MAX)', () => {
  it('answers every row, in the spec’s shape, up to the ceiling', async () => {
    const closed = await get(admin, '/api/tickets/clos?date_debut=2025-06-01&date_fin=2025-06-12');
    expect(closed.statusCode).toBe(200);
    expect((closed.json() as { tickets: Ticket[] }).tickets.map((t) => t.num_chrono)).toEqual([5, 4, 3, 2, 1, 0].map((i) => `LYO-2025-0000${i}`));
    const open = await get(admin, '/api/tickets');
    expect(open.statusCode).toBe(200);
    expect((open.json() as { tickets: Ticket[] }).tickets).toHaveLength(5);
    const stats = await get(admin, '/api/stats/tickets?from=2025-06-01&to=2025-06-12');
    expect(stats.statusCode).toBe(200);
    const body = stats.json() as { summary: unknown; items: StatsTicketItem[] };
    expect(Object.keys(body)).toEqual(['summary', 'items']);
    expect(body.items).toHaveLength(6);
    expect(body.summary).toEqual(summarizeStats(body.items));
    const csv = await get(admin, '/api/stats/tickets.csv?from=2025-06-01&to=2025-06-12');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')).toHaveLength(1 + 6 + 1);
  });

  it('refuses above it with a French 422 that says how to narrow, before any row', async () => {
    const stats = await get(admin, '/api/stats/tickets?from=2025-06-01&to=2025-06-30');
    expect(stats.statusCode).toBe(422);
    expect(stats.json()).toEqual({ error: BOUNDED_ANSWER_MESSAGES.tooManyStatsTickets(12), code: 'ANSWER_TOO_LARGE' });
    const csv = await get(admin, '/api/stats/tickets.csv?from=2025-06-01&to=2025-06-30');
    expect(csv.statusCode).toBe(422);
    expect(csv.headers['content-type']).toMatch(/^application\/json/);
    expect(csv.headers['content-disposition']).toBeUndefined();
    expect(csv.json()).toMatchObject({ error: BOUNDED_ANSWER_MESSAGES.tooManyCsvTickets(12) });
    // The closed search counted from the day sums, and counted row by row with a text filter.
    for (const url of ['/api/tickets/clos?date_debut=2025-06-01&date_fin=2025-06-30', '/api/tickets/clos?date_debut=2025-06-01&date_fin=2025-06-30&q=LYO']) {
      const closed = await get(admin, url);
      expect(closed.statusCode).toBe(422);
      expect(closed.json()).toEqual({ error: BOUNDED_ANSWER_MESSAGES.tooManyTickets(7), code: 'ANSWER_TOO_LARGE' });
    }
    expect(BOUNDED_ANSWER_MESSAGES.tooManyTickets(12_345)).toBe(
      'Trop de tickets pour une seule réponse (12\u00a0345) : précisez les filtres (dates, client…) ou utilisez la pagination (limit).',
    );
  });

  it('keeps paged calls as they were, whatever the ceiling', async () => {
    const page = await get(admin, '/api/stats/tickets?from=2025-06-01&to=2025-06-30&limit=3');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 12 });
  });

  it('counts the closed search with its text filter too', async () => {
    const res = await get(admin, '/api/tickets/clos?date_debut=2025-06-01&date_fin=2025-06-12&q=LYO');
    expect(res.statusCode).toBe(200);
    expect((res.json() as { tickets: Ticket[] }).tickets).toHaveLength(6);
  });
});

describe('heavy reads at once (HEAVY_READS_PER_USER, HEAVY_READS_PER_INSTANCE)', () => {
  it('answers 429 with Retry-After past either limit, at once, and frees the slot when the answer ends', async () => {
    // A lock on the read model holds the first heavy reads inside their count.
    const locker = new pg.Client({ connectionString: h.db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE rm.tickets IN ACCESS EXCLUSIVE MODE');
      const held = get(admin, '/api/tickets/clos?date_debut=2025-06-01&date_fin=2025-06-12');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Same user: past 1 per user.
      const mine = await get(admin, '/api/tickets');
      expect(mine.statusCode).toBe(429);
      expect(mine.headers['retry-after']).toBe(String(HEAVY_READS_RETRY_AFTER_SECONDS));
      expect(mine.json()).toEqual({ error: BOUNDED_ANSWER_MESSAGES.heavyReadsBusy, code: 'TOO_MANY_REQUESTS' });
      // A second user takes the instance's last slot; a third is refused.
      const second = get(other, '/api/stats/tickets.csv?from=2025-06-01&to=2025-06-12');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await get(third, '/api/stats/tickets?from=2025-06-01&to=2025-06-12');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(HEAVY_READS_RETRY_AFTER_SECONDS));
      // A paged call is not heavy: it waits for the lock like any read, and is never refused.
      const paged = get(third, '/api/tickets/clos?date_debut=2025-06-01&date_fin=2025-06-30&limit=2');
      await locker.query('COMMIT');
      expect((await held).statusCode).toBe(200);
      expect((await second).statusCode).toBe(200);
      expect((await paged).statusCode).toBe(200);
    } finally {
      await locker.end();
    }
    // Every slot given back: each user runs a heavy read again.
    for (const user of [admin, other, third]) expect((await get(user, '/api/tickets')).statusCode).toBe(200);
  });
});
