import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../src/test-support/api-harness.js';
import { errorOf, useClientWorld } from './support/client-fixtures.js';

const w = useClientWorld('api_mgmt_sites');

const body = (clientId: string, overrides: Record<string, unknown> = {}) => ({
  nom: 'Bâtiment B',
  adresse: '20 rue Garibaldi',
  ville: 'Lyon',
  code_postal: '69006',
  client_id: clientId,
  ...overrides,
});

async function siteIds(user: TestUser, clientId: string): Promise<string[]> {
  const res = await w.h.request(user, { method: 'GET', url: `/api/sites/client/${clientId}` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { id: string }[]).map((site) => site.id);
}

describe('POST /api/sites', () => {
  it('creates a site of a client in scope and answers it', async () => {
    const clientId = await w.f.client(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/sites', payload: body(clientId) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), nom: 'Bâtiment B', adresse: '20 rue Garibaldi', ville: 'Lyon', code_postal: '69006', client_id: clientId, version: 0 });
    expect(await siteIds(w.adminA, clientId)).toEqual([res.json().id]);
  });

  it("answers 400 'Tous les champs sont obligatoires !' for any missing field and creates nothing", async () => {
    const clientId = await w.f.client(w.adminA);
    for (const field of ['nom', 'adresse', 'ville', 'code_postal']) {
      const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/sites', payload: body(clientId, { [field]: '' }) });
      expect(res.statusCode, field).toBe(400);
      expect(errorOf(res)).toBe('Tous les champs sont obligatoires !');
    }
    const noClient = await w.h.request(w.adminA, { method: 'POST', url: '/api/sites', payload: body(clientId, { client_id: undefined }) });
    expect(noClient.statusCode).toBe(400);
    expect(errorOf(noClient)).toBe('Veuillez sélectionner un client.');
    expect(await siteIds(w.adminA, clientId)).toEqual([]);
  });

  it('answers 404 for a client of another agency or unknown, 403 without clients.edit, 401 without token', async () => {
    const clientB = await w.f.client(w.adminB);
    const other = await w.h.request(w.adminA, { method: 'POST', url: '/api/sites', payload: body(clientB) });
    expect(other.statusCode).toBe(404);
    expect(errorOf(other)).toBe('Client introuvable.');
    expect((await w.h.request(w.adminA, { method: 'POST', url: '/api/sites', payload: body(randomUUID()) })).statusCode).toBe(404);
    expect(await siteIds(w.adminB, clientB)).toEqual([]);
    const clientA = await w.f.client(w.adminA);
    expect((await w.h.request(w.techA, { method: 'POST', url: '/api/sites', payload: body(clientA) })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'POST', url: '/api/sites', payload: body(clientA) })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'POST', url: '/api/sites', payload: body(clientA) })).statusCode).toBe(401);
    // admin_plus works in every agency.
    expect((await w.h.request(w.adminPlus, { method: 'POST', url: '/api/sites', payload: body(clientB) })).statusCode).toBe(201);
  });
});

describe('GET /api/sites/client/{clientId}', () => {
  it('lists the sites by name for staff and for télésurveillance of the agency; 404 outside', async () => {
    const clientId = await w.f.client(w.adminA);
    const b = await w.f.site(w.adminA, clientId, { nom: 'Bâtiment B' });
    const a = await w.f.site(w.adminA, clientId, { nom: 'Accueil' });
    expect(await siteIds(w.techA, clientId)).toEqual([a, b]);
    expect(await siteIds(w.telesurvA, clientId)).toEqual([a, b]);
    const res = await w.h.request(w.adminA, { method: 'GET', url: `/api/sites/client/${clientId}` });
    expect(res.json()[0]).toEqual({ id: a, nom: 'Accueil', adresse: '10 avenue Jean Jaurès', ville: 'Villeurbanne', code_postal: '69100', client_id: clientId, version: 0 });

    const clientB = await w.f.client(w.adminB);
    for (const user of [w.adminA, w.telesurvA]) {
      const out = await w.h.request(user, { method: 'GET', url: `/api/sites/client/${clientB}` });
      expect(out.statusCode, user.role).toBe(404);
      expect(errorOf(out)).toBe('Client introuvable.');
    }
    const unassigned = await w.h.createUser({ role: 'telesurveillance' });
    expect((await w.h.request(unassigned, { method: 'GET', url: `/api/sites/client/${clientId}` })).statusCode).toBe(404);
    expect((await w.h.request(null, { method: 'GET', url: `/api/sites/client/${clientId}` })).statusCode).toBe(401);
  });
});

describe('GET /api/sites/{id}/installations', () => {
  it('lists the installations of a site in scope (télésurveillance included), 404 outside', async () => {
    const { siteId, installationId } = await w.f.tree(w.adminA, w.metierId);
    for (const user of [w.adminA, w.techA, w.telesurvA, w.adminPlus]) {
      const res = await w.h.request(user, { method: 'GET', url: `/api/sites/${siteId}/installations` });
      expect(res.statusCode, user.role).toBe(200);
      expect(res.json()).toEqual([
        { id: installationId, nom: expect.any(String), id_metier: w.metierId, metier_nom: expect.any(String), description: 'Centrale SSI', delai: 4, astreinte: 0, site_id: siteId, version: 0 },
      ]);
    }
    const out = await w.h.request(w.adminB, { method: 'GET', url: `/api/sites/${siteId}/installations` });
    expect(out.statusCode).toBe(404);
    expect(errorOf(out)).toBe('Site introuvable.');
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/sites/${randomUUID()}/installations` })).statusCode).toBe(404);
    expect((await w.h.request(null, { method: 'GET', url: `/api/sites/${siteId}/installations` })).statusCode).toBe(401);
  });
});

describe('PUT /api/sites/{id}', () => {
  it('updates the site, and may move it to another client in scope only', async () => {
    const clientId = await w.f.client(w.adminA);
    const siteId = await w.f.site(w.adminA, clientId);
    const res = await w.h.request(w.adminA, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(clientId, { nom: 'Bâtiment C' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: siteId, nom: 'Bâtiment C', client_id: clientId });

    const otherClient = await w.f.client(w.adminA);
    const moved = await w.h.request(w.adminA, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(otherClient, { nom: 'Bâtiment C' }) });
    expect(moved.statusCode).toBe(200);
    expect(await siteIds(w.adminA, otherClient)).toEqual([siteId]);
    expect(await siteIds(w.adminA, clientId)).toEqual([]);

    const clientB = await w.f.client(w.adminB);
    const refused = await w.h.request(w.adminA, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(clientB) });
    expect(refused.statusCode).toBe(404);
    expect(errorOf(refused)).toBe('Client introuvable.');
  });

  it('answers 400 unchanged, 404 out of scope or unknown, 403 without clients.edit, 401 without token', async () => {
    const clientId = await w.f.client(w.adminA);
    const siteId = await w.f.site(w.adminA, clientId, { nom: 'Inchangé' });
    const bad = await w.h.request(w.adminA, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(clientId, { ville: '' }) });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe('Tous les champs sont obligatoires !');
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/sites/client/${clientId}` })).json()[0]).toMatchObject({ nom: 'Inchangé', ville: 'Villeurbanne' });
    expect((await w.h.request(w.adminB, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(clientId) })).statusCode).toBe(404);
    expect((await w.h.request(w.adminA, { method: 'PUT', url: `/api/sites/${randomUUID()}`, payload: body(clientId) })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(clientId) })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'PUT', url: `/api/sites/${siteId}`, payload: body(clientId) })).statusCode).toBe(401);
  });
});

describe('DELETE /api/sites/{id}', () => {
  it('deletes the site, with its installations out of the lists', async () => {
    const { clientId, siteId } = await w.f.tree(w.adminA, w.metierId);
    const res = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/sites/${siteId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await siteIds(w.adminA, clientId)).toEqual([]);
    expect((await w.h.request(w.adminA, { method: 'GET', url: `/api/sites/${siteId}/installations` })).statusCode).toBe(404);
  });

  it('refuses while a ticket is open on one of its installations (409)', async () => {
    const { clientId, siteId, installationId } = await w.f.tree(w.adminA, w.metierId);
    const ticketId = await w.f.openTicket(installationId);
    const refused = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/sites/${siteId}` });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toBe('Impossible de supprimer ce site : des tickets sont encore ouverts.');
    expect(await siteIds(w.adminA, clientId)).toEqual([siteId]);
    await w.f.closeTicket(ticketId);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/sites/${siteId}` })).statusCode).toBe(200);
  });

  it('answers 404 out of scope, 403 without clients.edit, 401 without token', async () => {
    const clientId = await w.f.client(w.adminA);
    const siteId = await w.f.site(w.adminA, clientId);
    expect((await w.h.request(w.adminB, { method: 'DELETE', url: `/api/sites/${siteId}` })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'DELETE', url: `/api/sites/${siteId}` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/sites/${siteId}` })).statusCode).toBe(401);
    expect(await siteIds(w.adminA, clientId)).toEqual([siteId]);
  });
});
