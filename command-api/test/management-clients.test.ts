import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../src/test-support/api-harness.js';
import { errorOf, useClientWorld } from './support/client-fixtures.js';

const w = useClientWorld('api_mgmt_clients');

const body = (overrides: Record<string, unknown> = {}) => ({ nom: 'Hôpital Édouard Herriot', adresse: '5 place d’Arsonval', ville: 'Lyon', code_postal: '69003', ...overrides });

async function clientIds(user: TestUser): Promise<string[]> {
  const res = await w.h.request(user, { method: 'GET', url: '/api/clients' });
  expect(res.statusCode).toBe(200);
  return (res.json() as { id: string }[]).map((client) => client.id);
}

describe('POST /api/clients', () => {
  it('creates a client in the agency of a non admin_plus user, who may leave the agency out', async () => {
    const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/clients', payload: body({ nom: '  Clinique du Parc  ' }) });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(String),
      nom: 'Clinique du Parc',
      adresse: '5 place d’Arsonval',
      ville: 'Lyon',
      code_postal: '69003',
      agence_id: w.agenceA,
      agence_nom: 'Agence Lyon Centre',
      version: 0,
    });
    expect(await clientIds(w.adminA)).toContain(created.id);
  });

  it('lets admin_plus create in any agency, and requires it to pick one', async () => {
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/clients', payload: body({ agence_id: w.agenceB }) });
    expect(res.statusCode).toBe(201);
    expect(res.json().agence_id).toBe(w.agenceB);
    const missing = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/clients', payload: body() });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing)).toBe('Veuillez sélectionner une agence.');
    const unknown = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/clients', payload: body({ agence_id: randomUUID() }) });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('Agence introuvable.');
  });

  it('answers 400 with the French message and creates nothing', async () => {
    const before = await clientIds(w.adminPlus);
    for (const payload of [body({ nom: '' }), body({ ville: '   ' }), { nom: 'X' }, body({ code_postal: null })]) {
      const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/clients', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(res)).toBe("Le nom, l'adresse, la ville et le code postal du client sont obligatoires.");
    }
    const badAgence = await w.h.request(w.adminA, { method: 'POST', url: '/api/clients', payload: body({ agence_id: 'pas-un-id' }) });
    expect(badAgence.statusCode).toBe(400);
    expect(errorOf(badAgence)).toBe('Veuillez sélectionner une agence.');
    expect(await clientIds(w.adminPlus)).toEqual(before);
  });

  it('refuses another agency to a non admin_plus user (403), and the call without permission or token', async () => {
    const other = await w.h.request(w.adminA, { method: 'POST', url: '/api/clients', payload: body({ agence_id: w.agenceB }) });
    expect(other.statusCode).toBe(403);
    expect(errorOf(other)).toBe('Vous ne pouvez agir que sur votre propre agence.');
    for (const user of [w.techA, w.telesurvA]) {
      const res = await w.h.request(user, { method: 'POST', url: '/api/clients', payload: body({ agence_id: w.agenceA }) });
      expect(res.statusCode, user.role).toBe(403);
      expect(errorOf(res)).toBe('Accès refusé.');
    }
    const anonymous = await w.h.request(null, { method: 'POST', url: '/api/clients', payload: body() });
    expect(anonymous.statusCode).toBe(401);
    expect(errorOf(anonymous)).toBe('Session expirée');
  });
});

describe('GET /api/clients', () => {
  it('lists the clients of the caller’s agency, every agency for admin_plus, and refuses télésurveillance', async () => {
    const inA = await w.f.client(w.adminA, { nom: 'Alpha Sécurité' });
    const inB = await w.f.client(w.adminB, { nom: 'Beta Incendie' });
    const listA = await clientIds(w.adminA);
    expect(listA).toContain(inA);
    expect(listA).not.toContain(inB);
    // Technicians hold no clients.view by default but their ticket screens list the agency's clients.
    expect(await clientIds(w.techA)).toEqual(listA);
    const all = await clientIds(w.adminPlus);
    expect(all).toEqual(expect.arrayContaining([inA, inB]));
    const res = await w.h.request(w.adminA, { method: 'GET', url: '/api/clients' });
    expect(res.json()[0]).toEqual({
      id: expect.any(String),
      nom: expect.any(String),
      adresse: expect.any(String),
      ville: expect.any(String),
      code_postal: expect.any(String),
      agence_id: w.agenceA,
      agence_nom: 'Agence Lyon Centre',
      version: expect.any(Number),
    });
    expect((await w.h.request(w.telesurvA, { method: 'GET', url: '/api/clients' })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'GET', url: '/api/clients' })).statusCode).toBe(401);
  });

  it('searches by name and answers a page object when asked for a page', async () => {
    const agence = await w.h.createAgence('Agence Villefranche');
    const admin = await w.h.createUser({ role: 'admin', agenceId: agence });
    for (let i = 1; i <= 12; i++) await w.f.client(admin, { nom: `Résidence ${String(i).padStart(2, '0')}` });
    await w.f.client(admin, { nom: 'Mairie de Villefranche' });

    const searched = await w.h.request(admin, { method: 'GET', url: '/api/clients?search=MAIRIE' });
    expect((searched.json() as { nom: string }[]).map((c) => c.nom)).toEqual(['Mairie de Villefranche']);

    const first = await w.h.request(admin, { method: 'GET', url: '/api/clients?page=1' });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.total).toBe(13);
    expect(page1.page).toBe(1);
    expect(page1.pageSize).toBe(10);
    expect(page1.items).toHaveLength(10);
    const second = (await w.h.request(admin, { method: 'GET', url: '/api/clients?page=2&search=résidence' })).json();
    expect(second).toMatchObject({ total: 12, page: 2, pageSize: 10 });
    expect((second.items as { nom: string }[]).map((c) => c.nom)).toEqual(['Résidence 11', 'Résidence 12']);
    const sized = (await w.h.request(admin, { method: 'GET', url: '/api/clients?page=1&pageSize=5' })).json();
    expect(sized.items).toHaveLength(5);

    const bad = await w.h.request(admin, { method: 'GET', url: '/api/clients?page=0' });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe('La page doit être un nombre entier supérieur ou égal à 1.');
    const tooBig = await w.h.request(admin, { method: 'GET', url: '/api/clients?page=1&pageSize=1000' });
    expect(tooBig.statusCode).toBe(400);
  });
});

describe('GET /api/clients/by-agence/{agenceId}', () => {
  it('lists an agency in scope, 404 for another one, and serves télésurveillance for its agencies', async () => {
    const inA = await w.f.client(w.adminA);
    const inB = await w.f.client(w.adminB);
    const own = await w.h.request(w.adminA, { method: 'GET', url: `/api/clients/by-agence/${w.agenceA}` });
    expect(own.statusCode).toBe(200);
    expect((own.json() as { id: string }[]).map((c) => c.id)).toContain(inA);
    const other = await w.h.request(w.adminA, { method: 'GET', url: `/api/clients/by-agence/${w.agenceB}` });
    expect(other.statusCode).toBe(404);
    expect(errorOf(other)).toBe('Agence introuvable.');
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: `/api/clients/by-agence/${w.agenceB}` })).json().map((c: { id: string }) => c.id)).toContain(inB);
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: `/api/clients/by-agence/${randomUUID()}` })).statusCode).toBe(404);

    const tele = await w.h.request(w.telesurvA, { method: 'GET', url: `/api/clients/by-agence/${w.agenceA}` });
    expect(tele.statusCode).toBe(200);
    expect((tele.json() as { id: string }[]).map((c) => c.id)).toContain(inA);
    expect((await w.h.request(w.telesurvA, { method: 'GET', url: `/api/clients/by-agence/${w.agenceB}` })).statusCode).toBe(404);
    expect((await w.h.request(null, { method: 'GET', url: `/api/clients/by-agence/${w.agenceA}` })).statusCode).toBe(401);
    const badId = await w.h.request(w.adminA, { method: 'GET', url: '/api/clients/by-agence/abc' });
    expect(badId.statusCode).toBe(400);
    expect(errorOf(badId)).toBe('Identifiant invalide.');
  });
});

describe('PUT /api/clients/{id}', () => {
  it('updates the client and answers it', async () => {
    const id = await w.f.client(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'PUT', url: `/api/clients/${id}`, payload: body({ nom: 'Nouveau nom', agence_id: w.agenceA }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, nom: 'Nouveau nom', agence_id: w.agenceA });
    // Unchanged body: nothing appended, same answer.
    const again = await w.h.request(w.adminA, { method: 'PUT', url: `/api/clients/${id}`, payload: body({ nom: 'Nouveau nom' }) });
    expect(again.statusCode).toBe(200);
    expect(await w.h.store.readStream(`client-${id}`)).toHaveLength(2);
  });

  it('lets admin_plus move a client to another agency, never an agency admin', async () => {
    const id = await w.f.client(w.adminA);
    const refused = await w.h.request(w.adminA, { method: 'PUT', url: `/api/clients/${id}`, payload: body({ agence_id: w.agenceB }) });
    expect(refused.statusCode).toBe(403);
    const moved = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/clients/${id}`, payload: body({ agence_id: w.agenceB }) });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().agence_nom).toBe('Agence Grenoble');
    expect((await w.h.request(w.adminA, { method: 'PUT', url: `/api/clients/${id}`, payload: body() })).statusCode).toBe(404);
  });

  it('answers 400 and leaves the client unchanged, 404 for another agency or an unknown id, 403 without clients.edit', async () => {
    const id = await w.f.client(w.adminA, { nom: 'Tel quel' });
    const bad = await w.h.request(w.adminA, { method: 'PUT', url: `/api/clients/${id}`, payload: body({ adresse: '' }) });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe("Le nom, l'adresse, la ville et le code postal du client sont obligatoires.");
    const list = (await w.h.request(w.adminA, { method: 'GET', url: '/api/clients?search=Tel quel' })).json();
    expect(list).toHaveLength(1);
    expect(list[0].adresse).toBe('3 rue de la République');

    const other = await w.h.request(w.adminB, { method: 'PUT', url: `/api/clients/${id}`, payload: body() });
    expect(other.statusCode).toBe(404);
    expect(errorOf(other)).toBe('Client introuvable.');
    expect((await w.h.request(w.adminA, { method: 'PUT', url: `/api/clients/${randomUUID()}`, payload: body() })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'PUT', url: `/api/clients/${id}`, payload: body() })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'PUT', url: `/api/clients/${id}`, payload: body() })).statusCode).toBe(401);
  });
});

describe('DELETE /api/clients/{id}', () => {
  it('deletes the client, which leaves the lists', async () => {
    const id = await w.f.client(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/clients/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await clientIds(w.adminA)).not.toContain(id);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/clients/${id}` })).statusCode).toBe(404);
  });

  it('refuses while a ticket is open on one of its installations (409), and allows it once closed', async () => {
    const { clientId, installationId } = await w.f.tree(w.adminA, w.metierId);
    const ticketId = await w.f.openTicket(installationId);
    const refused = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/clients/${clientId}` });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toBe('Impossible de supprimer ce client : des tickets sont encore ouverts.');
    expect(await clientIds(w.adminA)).toContain(clientId);
    await w.f.closeTicket(ticketId);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/clients/${clientId}` })).statusCode).toBe(200);
  });

  it('answers 404 for another agency’s client, 403 without clients.edit, 401 without token', async () => {
    const id = await w.f.client(w.adminA);
    expect((await w.h.request(w.adminB, { method: 'DELETE', url: `/api/clients/${id}` })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'DELETE', url: `/api/clients/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'DELETE', url: `/api/clients/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/clients/${id}` })).statusCode).toBe(401);
    expect(await clientIds(w.adminA)).toContain(id);
  });
});

describe('GET /api/clients/{id}/sites', () => {
  it('answers the sites with their installations, 404 out of scope, 403 for télésurveillance', async () => {
    const { clientId, siteId, installationId } = await w.f.tree(w.adminA, w.metierId);
    const emptySite = await w.f.site(w.adminA, clientId, { nom: 'AAA Parking' });
    const res = await w.h.request(w.techA, { method: 'GET', url: `/api/clients/${clientId}/sites` });
    expect(res.statusCode).toBe(200);
    const sites = res.json();
    expect(sites.map((s: { id: string }) => s.id)).toEqual([emptySite, siteId]);
    expect(sites[0].installations).toEqual([]);
    expect(sites[1]).toMatchObject({ id: siteId, client_id: clientId, ville: 'Villeurbanne', code_postal: '69100' });
    expect(sites[1].installations).toEqual([
      {
        id: installationId,
        nom: expect.any(String),
        id_metier: w.metierId,
        metier_nom: expect.any(String),
        description: 'Centrale SSI',
        delai: 4,
        astreinte: 0,
        site_id: siteId,
        version: 0,
      },
    ]);
    expect((await w.h.request(w.adminB, { method: 'GET', url: `/api/clients/${clientId}/sites` })).statusCode).toBe(404);
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/clients/${randomUUID()}/sites` })).statusCode).toBe(404);
    expect((await w.h.request(w.telesurvA, { method: 'GET', url: `/api/clients/${clientId}/sites` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'GET', url: `/api/clients/${clientId}/sites` })).statusCode).toBe(401);
  });
});
