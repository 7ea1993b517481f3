import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANAGEMENT_MESSAGES, TICKET_MESSAGES } from '@fsm/contracts';
import { createApiHarness, type ApiHarness, type TestUser } from '../../src/test-support/api-harness.js';
import { createTicket, createWorld, requester, type World } from '../tickets-fixtures.js';
import { eventStoreState } from './state-snapshot.js';

/*
 * Issue 17 over HTTP, as the four roles of the finding reported it: each
 * request that used to be accepted and then stop the read side (or answer
 * 500) now answers a French 400 and writes nothing, and the read side keeps
 * answering. Item 13's bidi controls are refused in the names of every form.
 * The property test (poison-events.test.ts) proves the class on the deciders;
 * this file proves the routes answer as the users will see it.
 */

let h: ApiHarness;
let world: World;
let adminPlus: TestUser;
let admin: TestUser;
let technicien: TestUser;
let telesurv: TestUser;

beforeAll(async () => {
  h = await createApiHarness('api_bounded_input');
  world = await createWorld(h);
  adminPlus = await h.createUser({ role: 'admin_plus', agenceId: world.agenceId });
  admin = await h.createUser({ role: 'admin', agenceId: world.agenceId });
  technicien = await h.createUser({ role: 'technicien', agenceId: world.agenceId });
  telesurv = await h.createUser({ role: 'telesurveillance', telesurvAgences: [world.agenceId] });
}, 120_000);

afterAll(async () => {
  await h?.close();
});

/** English words a French refusal must not be made of. */
const ENGLISH = /\b(invalid|expected|required|must|should|unexpected|received|too (big|small|large))\b/i;

/** Sends the request, expects a French 400 (with `message` when given) and no event written. */
async function expectRefused(user: TestUser, request: InjectOptions, message?: string): Promise<void> {
  const before = await eventStoreState(h);
  const res = await h.request(user, request);
  expect(res.statusCode, `${request.method} ${request.url}: ${res.body}`).toBe(400);
  const error = res.json().error as string;
  if (message !== undefined) expect(error).toBe(message);
  expect(error).not.toMatch(ENGLISH);
  expect(await eventStoreState(h)).toBe(before);
}

describe('the four reproductions of the finding', () => {
  it('a technician registering a ticket in year 1500 (and 0100, which answered 500)', async () => {
    for (const date of ['1500-06-15', '0100-06-15']) {
      const before = await eventStoreState(h);
      const res = await createTicket(h, technicien, { installation_id: world.installationId, ...requester, probleme: 'Alarme', date_enregistrement: date, heure_enregistrement: '10:00' });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe(TICKET_MESSAGES.dateOutOfRange);
      expect(await eventStoreState(h)).toBe(before);
    }
  });

  it('a télésurveillance account sending a registration in year 1500 never opens a ticket dated then', async () => {
    const res = await createTicket(h, telesurv, { installation_id: world.installationId, ...requester, probleme: 'Alarme', date_enregistrement: '1500-06-15', heure_enregistrement: '10:00' });
    // Its form has no date: refused, or opened now; never a ticket of 1500.
    if (res.statusCode === 400) {
      expect(res.json().error).not.toMatch(ENGLISH);
    } else {
      expect(res.statusCode, res.body).toBe(201);
      const ticket = await h.request(adminPlus, { method: 'GET', url: `/api/tickets/${res.json().ticket_id}` });
      expect(Number(ticket.json().created_at.slice(0, 4))).toBeGreaterThanOrEqual(2000);
    }
  });

  it('an agency admin saving an installation delai of 3,000,000,000', async () => {
    const body = { nom: 'SSI', id_metier: world.metierId, description: 'Centrale', delai: 3_000_000_000, astreinte: 0, site_id: world.siteId };
    await expectRefused(admin, { method: 'POST', url: '/api/installations', payload: body }, MANAGEMENT_MESSAGES.installationDelaiTooLarge);
    await expectRefused(admin, { method: 'PUT', url: `/api/installations/${world.installationId}`, payload: body }, MANAGEMENT_MESSAGES.installationDelaiTooLarge);
  });

  it('an admin_plus saving a métier ordre of 3,000,000,000, in the form and in a drag', async () => {
    await expectRefused(adminPlus, { method: 'POST', url: '/api/metiers', payload: { nom: 'Ordre énorme', ordre: 3_000_000_000, delai_inter: 4, HO_stats: 0 } }, MANAGEMENT_MESSAGES.metierOrdreOutOfRange);
    await expectRefused(adminPlus, { method: 'PUT', url: '/api/metiers/reorder', payload: [{ id: world.metierId, ordre: 3_000_000_000 }] }, MANAGEMENT_MESSAGES.metierOrdreOutOfRange);
    await expectRefused(adminPlus, { method: 'POST', url: '/api/metiers', payload: { nom: 'Délai énorme', ordre: 1, delai_inter: 3_000_000_000, HO_stats: 0 } }, MANAGEMENT_MESSAGES.metierDelaiTooLarge);
  });

  it('after all of them the read side still answers: a new client is read back at once', async () => {
    const res = await h.request(admin, { method: 'POST', url: '/api/clients', payload: { nom: 'Après les refus', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: world.agenceId } });
    expect(res.statusCode, res.body).toBe(201);
    const clients = await h.request(admin, { method: 'GET', url: '/api/clients' });
    expect(clients.json().map((client: { nom: string }) => client.nom)).toContain('Après les refus');
  });
});

describe('bidi and invisible controls in names (item 13: names stored and shown reversed)', () => {
  const RLO = 'Dupont\u202Efdp.exe';
  const HIDDEN = MANAGEMENT_MESSAGES.hiddenCharacters;

  it('refuses them in every management form', async () => {
    const requests: [TestUser, InjectOptions][] = [
      [admin, { method: 'POST', url: '/api/clients', payload: { nom: RLO, adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: world.agenceId } }],
      [admin, { method: 'POST', url: '/api/sites', payload: { nom: 'Usine', adresse: `1 rue ${RLO}`, ville: 'Lyon', code_postal: '69001', client_id: world.clientId } }],
      [admin, { method: 'POST', url: '/api/installations', payload: { nom: RLO, id_metier: world.metierId, description: 'Centrale', delai: 4, astreinte: 0, site_id: world.siteId } }],
      [admin, { method: 'POST', url: '/api/interlocuteurs', payload: { nom: 'Martin', prenom: 'Léa\u200B', client_id: world.clientId, affect_sites: [], affect_installations: [] } }],
      [adminPlus, { method: 'POST', url: '/api/agences', payload: { nom: '\u2066Lyon\u2069', adresse: '1 rue', cp_postal: '69001', ville: 'Lyon', telephone: '04 72 00 00 00' } }],
      [adminPlus, { method: 'POST', url: '/api/utilisateurs', payload: { nom: RLO, prenom: 'Léa', email: 'lea.rlo@example.fr', telephone: '06', role: 'technicien', agence_id: world.agenceId, motdepasse: 'Secret-2026!' } }],
      [adminPlus, { method: 'POST', url: '/api/telesurv', payload: { nom: RLO, email: 'veille.rlo@example.fr', telephone: '06', motdepasse: 'Secret-2026!' } }],
      [adminPlus, { method: 'POST', url: '/api/metiers', payload: { nom: RLO, ordre: 1, delai_inter: 4, HO_stats: 0 } }],
      [adminPlus, { method: 'POST', url: '/api/templates', payload: { name: RLO, content_html: '<p>x</p>', css: '' } }],
    ];
    for (const [user, request] of requests) await expectRefused(user, request, HIDDEN);
  });

  it('refuses them in the contact of a ticket (the public form uses the same fields)', async () => {
    const before = await eventStoreState(h);
    const res = await createTicket(h, technicien, { installation_id: world.installationId, ...requester, nom: RLO, probleme: 'Alarme' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(TICKET_MESSAGES.hiddenCharacters);
    expect(await eventStoreState(h)).toBe(before);
  });

  it('keeps accents, apostrophes and emoji', async () => {
    const res = await h.request(admin, { method: 'POST', url: '/api/clients', payload: { nom: 'Hôtel de l’Éole 👩‍🚒', adresse: '1 rue', ville: 'Lyon', code_postal: '69001', agence_id: world.agenceId } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().nom).toBe('Hôtel de l’Éole 👩‍🚒');
  });
});
