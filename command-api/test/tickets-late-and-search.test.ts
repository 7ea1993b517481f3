import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parisCalendarDay } from '@fsm/contracts';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { createWorld, openTicketId, visitBody, type World } from './tickets-fixtures.js';

/*
 * Issue 32, items 8 and 9, on the read API: the opt-in late view of the open
 * list (`en_retard=1`, most late first) and its chip count (`avec_retard=1`),
 * and the closed search's opt-in text `q` (technicians' names without accents
 * or case, a whole chrono number exactly).
 */

const HOUR_MS = 3_600_000;

let h: ApiHarness;
let world: World;
let admin: TestUser;
let helene: TestUser;
const t: Record<string, string> = {};
const chrono: Record<string, string> = {};

/** Registered `hours` ago (French day and time): with the installation's 4 h delay, late from 4 h on. */
const hoursAgo = (hours: number) => {
  const at = new Date(Date.now() - hours * HOUR_MS);
  const time = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return { date_enregistrement: parisCalendarDay(at), heure_enregistrement: time };
};

beforeAll(async () => {
  h = await createApiHarness('api_tickets_late_search');
  world = await createWorld(h, { agenceNom: 'Grenoble', clientNom: 'Musée Dauphinois', delai: 4 });
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  helene = await h.createUser({ role: 'technicien', agenceId: world.agenceId, prenom: 'Hélène', nom: 'Dupré' });

  t.lateMost = await openTicketId(h, admin, world.installationId, hoursAgo(3 * 24));
  t.lateLess = await openTicketId(h, admin, world.installationId, { ...hoursAgo(20), id_technicien: helene.id });
  t.onTime = await openTicketId(h, admin, world.installationId, hoursAgo(1));
  t.closed = await openTicketId(h, admin, world.installationId, { ...hoursAgo(2 * 24), id_technicien: helene.id });
  const closing = await h.request(helene, { method: 'PATCH', url: `/api/tickets/${t.closed}/close`, payload: visitBody() });
  expect(closing.statusCode).toBe(200);
  chrono.closed = closing.json().num_chrono as string;
});
afterAll(async () => h?.close());

async function get<T>(user: TestUser, url: string): Promise<T> {
  const res = await h.request(user, { method: 'GET', url });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
}

const ids = (answer: { tickets: { id: string }[] }) => answer.tickets.map((ticket) => ticket.id);

describe('late tickets on the open list (item 8)', () => {
  it('en_retard=1 keeps the tickets past their échéance, most late first; the default order is unchanged', async () => {
    expect(ids(await get(admin, '/api/tickets?en_retard=1'))).toEqual([t.lateMost, t.lateLess]);
    // Without it, the spec's list: ouvert first (newest first), then the others.
    expect(ids(await get(admin, '/api/tickets'))).toEqual([t.onTime, t.lateMost, t.lateLess]);
  });

  it('pages the late view with its own cursor, and counts the « En retard » chip in SQL when asked', async () => {
    const first = await get<{ tickets: { id: string }[]; next_cursor: string | null; total: number; counts: Record<string, number> }>(admin, '/api/tickets?en_retard=1&limit=1&avec_retard=1');
    expect(ids(first)).toEqual([t.lateMost]);
    expect(first.total).toBe(2);
    expect(first.counts).toEqual({ tout: 3, urgents: 0, ouverts: 2, en_cours: 1, interventions: 0, en_retard: 2 });
    const second = await get<{ tickets: { id: string }[]; next_cursor: string | null }>(admin, `/api/tickets?en_retard=1&limit=1&avec_retard=1&cursor=${first.next_cursor}`);
    expect(ids(second)).toEqual([t.lateLess]);
    expect(second.next_cursor).toBeNull();
    // A cursor of the late view is not one of the spec's list.
    const foreign = await h.request(admin, { method: 'GET', url: `/api/tickets?limit=1&cursor=${first.next_cursor}` });
    expect(foreign.statusCode).toBe(400);
  });

  it('adds nothing to the counts without avec_retard (opt-in)', async () => {
    const page = await get<{ counts: Record<string, number> }>(admin, '/api/tickets?limit=5');
    expect(Object.keys(page.counts)).toEqual(['tout', 'urgents', 'ouverts', 'en_cours', 'interventions']);
    const chip = await get<{ counts: Record<string, number>; total: number }>(admin, '/api/tickets?limit=5&statut=en_cours&avec_retard=1');
    expect(chip.counts.en_retard).toBe(2);
    expect(chip.total).toBe(1);
  });
});

describe('closed search text (item 9)', () => {
  it("finds a closed ticket by its technician's name, whatever the accents and case", async () => {
    for (const q of ['helene', 'HÉLÈNE', 'dupre', 'Hélène Dupré', 'Musée']) {
      expect(ids(await get(admin, `/api/tickets/clos?q=${encodeURIComponent(q)}`)), q).toEqual([t.closed]);
    }
    expect(ids(await get(admin, '/api/tickets/clos?q=nobody'))).toEqual([]);
  });

  it('finds a closed ticket by its whole number exactly, with the page total', async () => {
    expect(ids(await get(admin, `/api/tickets/clos?q=${chrono.closed!.toLowerCase()}`))).toEqual([t.closed]);
    const page = await get<{ tickets: { id: string }[]; total: number }>(admin, `/api/tickets/clos?q=${chrono.closed}&limit=5`);
    expect([ids(page), page.total]).toEqual([[t.closed], 1]);
    // An open ticket's number is not a closed ticket.
    const open = await get<{ num_chrono: string }>(admin, `/api/tickets/${t.onTime}`);
    expect(ids(await get(admin, `/api/tickets/clos?q=${open.num_chrono}`))).toEqual([]);
  });

  it('refuses a text over 100 characters in French', async () => {
    const res = await h.request(admin, { method: 'GET', url: `/api/tickets/clos?q=${'a'.repeat(101)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('La recherche ne doit pas dépasser 100 caractères.');
  });
});
