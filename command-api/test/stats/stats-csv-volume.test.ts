import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STATS_CSV_HEADER } from '@fsm/contracts';
import { STATS_PAGE_SIZE } from '@fsm/projections';
import { createApiHarness, type ApiHarness } from '../../src/test-support/api-harness.js';

let h: ApiHarness;
const now = new Date('2025-07-01T10:00:00.000Z');
const ROWS = 100_000;
let agence: string;

beforeAll(async () => {
  h = await createApiHarness('api_stats_csv_volume');
  h.setNow(now);
  agence = await h.createAgence('Agence volumineuse');
  // 100,000 tickets straight into the read models (appending them through the
  // deciders would take minutes): this test is about how the export reads and
  // writes them, the projector tests are about how rows are made.
  await h.pool.query(
    `INSERT INTO rm.tickets (id, num_chrono, source, statut, urgent, agence_id, client_id, client_nom, site_id, site_nom, site_adresse,
       site_code_postal, site_ville, installation_id, installation_nom, astreinte, probleme, created_at, delai,
       demandeur_prenom, demandeur_nom, demandeur_email, demandeur_telephone, last_revision)
     SELECT gen_random_uuid(), 'VOL-' || lpad(i::text, 6, '0'), 'manual', 'ouvert', false, $1, gen_random_uuid(), 'Client ' || i, gen_random_uuid(),
       'Site', '1 rue', '69001', 'Lyon', gen_random_uuid(), 'SSI', 0, 'Panne',
       -- Tickets share their instant seven at a time, so pages break inside ties.
       $2::timestamptz - make_interval(secs => (i / 7) * 17), 4, 'P', 'N', 'p@n.fr', '06', 0
     FROM generate_series(1, ${ROWS}) AS i`,
    [agence, now],
  );
  await h.pool.query(
    `INSERT INTO rm.ticket_sla (ticket_id, agence_id, created_at, delai, sla_deadline, last_revision)
     SELECT id, agence_id, created_at, delai, created_at + interval '4 hours', 0 FROM rm.tickets WHERE agence_id = $1`,
    [agence],
  );
});
afterAll(async () => h?.close());

describe('GET /api/stats/tickets.csv at volume', () => {
  it(`streams ${ROWS.toLocaleString('en')} rows in keyset pages of ${STATS_PAGE_SIZE}, each row once, in order`, async () => {
    const user = await h.createUser({ role: 'technicien_plus', agenceId: agence });
    const query = vi.spyOn(h.pool, 'query');
    try {
      const res = await h.request(user, { method: 'GET', url: '/api/stats/tickets.csv?from=2025-01-01&to=2025-07-01' });
      expect(res.statusCode).toBe(200);
      const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n');
      expect(lines[0]).toBe(STATS_CSV_HEADER.join(';'));
      expect(lines.at(-1)).toBe('');
      const rows = lines.slice(1, -1);
      expect(rows).toHaveLength(ROWS);
      expect(new Set(rows.map((line) => line.split(';')[0])).size).toBe(ROWS);
      // Newest first: ticket i was opened (i / 7) × 17 s before now.
      const ages = rows.map((line) => Math.floor(Number(line.split(';')[1]?.slice('VOL-'.length)) / 7));
      expect(ages.every((age, k) => k === 0 || age >= (ages[k - 1] ?? 0))).toBe(true);
      expect([ages[0], ages.at(-1)]).toEqual([0, Math.floor(ROWS / 7)]);
      // Opened more than 4 h before `now`, never reached: Non; no quote: N/A.
      expect(rows.at(-1)?.endsWith(';Non;N/A;0')).toBe(true);
      const pageQueries = query.mock.calls.filter(([sql]) => typeof sql === 'string' && sql.includes('cursor_created_at'));
      // Full pages, then one that finds nothing more: never one query for everything.
      expect(pageQueries).toHaveLength(ROWS / STATS_PAGE_SIZE + 1);
    } finally {
      query.mockRestore();
    }
  }, 120_000);
});
