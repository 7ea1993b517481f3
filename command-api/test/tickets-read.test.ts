import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES as M, parisCalendarDay, ticketSchema } from '@fsm/contracts';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { ticketListAnswerSchema } from '../src/routes/tickets/ticket-route-schemas.js';
import { createWorld, openTicketId, visitBody, type World } from './tickets-fixtures.js';

const DAY_MS = 86_400_000;

let h: ApiHarness;
let world: World;
let second: World;
let admin: TestUser;
let tech: TestUser;
let techPlus: TestUser;
/** Tickets by role in the scenario. */
const t: Record<string, string> = {};

const daysAgo = (days: number, time = '10:00') => ({ date_enregistrement: parisCalendarDay(Date.now() - days * DAY_MS), heure_enregistrement: time });

beforeAll(async () => {
  h = await createApiHarness('api_tickets_read');
  world = await createWorld(h, { agenceNom: 'Nantes', clientNom: 'Clinique du Lac' });
  second = await createWorld(h, { agenceId: world.agenceId, clientNom: 'Lycée Jules Verne' });
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  tech = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
  techPlus = await h.createUser({ role: 'technicien_plus', agenceId: world.agenceId });

  const take = (id: string, technicienId: string) => h.request(admin, { method: 'PATCH', url: `/api/tickets/${id}`, payload: { statut: 'en_cours', technicien_id: technicienId } });
  const close = (id: string, body = visitBody()) => h.request(tech, { method: 'PATCH', url: `/api/tickets/${id}/close`, payload: body });

  t.ouvert = await openTicketId(h, admin, world.installationId, daysAgo(3));
  t.urgent = await openTicketId(h, admin, world.installationId, { ...daysAgo(4), urgent: '1' });
  t.enCours = await openTicketId(h, admin, second.installationId, { ...daysAgo(2), id_technicien: tech.id });
  t.intervention = await openTicketId(h, admin, world.installationId, { ...daysAgo(1), id_technicien: tech.id });
  await h.request(tech, { method: 'POST', url: `/api/tickets/${t.intervention}/intervention`, payload: visitBody({ devis: 1 }) });

  t.closedRecent = await openTicketId(h, admin, world.installationId, daysAgo(5));
  await take(t.closedRecent, tech.id);
  await close(t.closedRecent);
  t.closedQuote = await openTicketId(h, admin, second.installationId, daysAgo(6));
  await take(t.closedQuote, techPlus.id);
  await close(t.closedQuote, visitBody({ devis: 1 }));
  t.closedOld = await openTicketId(h, admin, world.installationId, daysAgo(40));
  await take(t.closedOld, tech.id);
  await close(t.closedOld);
});
afterAll(async () => h?.close());

const ids = (tickets: { id: string }[]) => tickets.map((ticket) => ticket.id);

async function list(user: TestUser, url: string): Promise<{ id: string; statut: string }[]> {
  const res = await h.request(user, { method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  return ticketListAnswerSchema.parse(res.json()).tickets;
}

describe('GET /api/tickets (open tickets)', () => {
  it('answers { tickets } in list order: urgent, ouvert, then the others, newest first', async () => {
    expect(ids(await list(tech, '/api/tickets'))).toEqual([t.urgent, t.ouvert, t.intervention, t.enCours]);
  });

  it('applies the list filters statut, urgent and devis_attente', async () => {
    expect(ids(await list(tech, '/api/tickets?statut=ouvert'))).toEqual([t.urgent, t.ouvert]);
    expect(ids(await list(tech, '/api/tickets?statut=en_cours'))).toEqual([t.enCours]);
    expect(ids(await list(tech, '/api/tickets?statut=intervention'))).toEqual([t.intervention]);
    expect(ids(await list(tech, '/api/tickets?urgent=1'))).toEqual([t.urgent]);
    expect(ids(await list(tech, '/api/tickets?devis_attente=1'))).toEqual([t.intervention]);
    expect(ids(await list(tech, '/api/tickets?statut=clos'))).toEqual([]);
    // A hand-edited URL does not break the list.
    expect(ids(await list(tech, '/api/tickets?statut=nimporte&urgent=peut-etre'))).toHaveLength(4);
  });

  it('shows another agency nothing, and admin_plus everything', async () => {
    const outsider = await h.createUser({ role: 'admin' });
    expect(await list(outsider, '/api/tickets')).toEqual([]);
    const platform = await h.createUser({ role: 'admin_plus' });
    expect(ids(await list(platform, '/api/tickets'))).toEqual(expect.arrayContaining([t.urgent, t.ouvert, t.intervention, t.enCours]));
  });
});

describe('GET /api/tickets/clos', () => {
  it('defaults to the last 30 days', async () => {
    expect(ids(await list(tech, '/api/tickets/clos'))).toEqual([t.closedRecent, t.closedQuote]);
  });

  it('applies every filter', async () => {
    const from = parisCalendarDay(Date.now() - 60 * DAY_MS);
    const all = `/api/tickets/clos?date_debut=${from}&date_fin=${parisCalendarDay(Date.now())}`;
    expect(ids(await list(tech, all))).toEqual([t.closedRecent, t.closedQuote, t.closedOld]);
    expect(ids(await list(tech, `/api/tickets/clos?date_debut=${from}&date_fin=${parisCalendarDay(Date.now() - 30 * DAY_MS)}`))).toEqual([t.closedOld]);
    expect(ids(await list(tech, `/api/tickets/clos?date_debut=${parisCalendarDay(Date.now() - 5 * DAY_MS)}`))).toEqual([t.closedRecent]);
    expect(ids(await list(tech, `${all}&client_id=${second.clientId}`))).toEqual([t.closedQuote]);
    expect(ids(await list(tech, `${all}&site_id=${world.siteId}`))).toEqual([t.closedRecent, t.closedOld]);
    expect(ids(await list(tech, `${all}&installation_id=${second.installationId}`))).toEqual([t.closedQuote]);
    expect(ids(await list(tech, `${all}&technicien_id=${techPlus.id}`))).toEqual([t.closedQuote]);
    expect(ids(await list(tech, `${all}&metier_id=${world.metierId}`))).toEqual([t.closedRecent, t.closedOld]);
    expect(ids(await list(tech, `${all}&devis_attente=1`))).toEqual([t.closedQuote]);
    expect(ids(await list(tech, '/api/tickets/clos?devis_attente=1'))).toEqual([t.closedQuote]);
  });

  it('answers 400 in French for a bad filter', async () => {
    const reversed = await h.request(tech, { method: 'GET', url: '/api/tickets/clos?date_debut=2026-02-01&date_fin=2026-01-01' });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error).toBe(M.invalidDateRange);
    const badDay = await h.request(tech, { method: 'GET', url: '/api/tickets/clos?date_debut=2026-02-31' });
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().error).toBe(M.invalidDate);
    const badId = await h.request(tech, { method: 'GET', url: '/api/tickets/clos?client_id=42' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error).toBe(M.invalidId);
  });
});

describe('GET /api/tickets/{id} and /interventions', () => {
  it('answers every field of the spec’s Ticket entity', async () => {
    const res = await h.request(tech, { method: 'GET', url: `/api/tickets/${t.intervention}` });
    expect(res.statusCode).toBe(200);
    const ticket = res.json();
    for (const field of Object.keys(ticketSchema.shape)) expect(ticket, field).toHaveProperty(field);
    expect(ticketSchema.parse(ticket)).toMatchObject({ statut: 'intervention', interventions_supp_count: 1, interventions_count: 1, devis: 1 });
    const elapsed = Math.floor((Date.now() - Date.parse(ticket.created_at)) / 60_000);
    expect(Math.abs(ticket.minutes_ecoulees - elapsed)).toBeLessThanOrEqual(1);
    const visits = await h.request(tech, { method: 'GET', url: `/api/tickets/${t.intervention}/interventions` });
    expect(visits.statusCode).toBe(200);
    expect(visits.json()).toHaveLength(1);
    expect((await h.request(tech, { method: 'GET', url: `/api/tickets/${t.ouvert}/interventions` })).json()).toEqual([]);
  });

  it('answers 404 "Ticket non trouvé" for an unknown or another agency’s ticket, 400 for a malformed id', async () => {
    const outsider = await h.createUser({ role: 'technicien' });
    for (const url of [`/api/tickets/${t.ouvert}`, `/api/tickets/${t.ouvert}/interventions`, `/api/tickets/${crypto.randomUUID()}`]) {
      const res = await h.request(outsider, { method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('Ticket non trouvé');
    }
    const malformed = await h.request(tech, { method: 'GET', url: '/api/tickets/42' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBe(M.invalidId);
  });
});

describe('access to ticket lists and details', () => {
  it('answers 401 without a token and 403 to télésurveillance', async () => {
    const veille = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceId] });
    for (const url of ['/api/tickets', '/api/tickets/clos', `/api/tickets/${t.ouvert}`, `/api/tickets/${t.ouvert}/interventions`, `/api/tickets/${t.ouvert}/history`]) {
      const anonymous = await h.request(null, { method: 'GET', url });
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.json().error).toBe('Session expirée');
      const telesurv = await h.request(veille, { method: 'GET', url });
      expect(telesurv.statusCode, url).toBe(403);
      expect(telesurv.json().error).toBe('Accès refusé.');
    }
  });
});
