import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../src/test-support/api-harness.js';
import { errorOf, useClientWorld } from './support/client-fixtures.js';

const metierNom = 'Alarme incendie';
const w = useClientWorld('api_mgmt_installations', { nom: metierNom, delai_inter: 4, HO_stats: 1 });

const body = (siteId: string, overrides: Record<string, unknown> = {}) => ({
  nom: 'SSI catégorie A',
  id_metier: w.metierId,
  description: 'Centrale Esser IQ8, 4 boucles',
  delai: 4,
  astreinte: true,
  site_id: siteId,
  ...overrides,
});

async function installationsOf(user: TestUser, siteId: string): Promise<{ id: string; nom: string; delai: number; astreinte: number }[]> {
  const res = await w.h.request(user, { method: 'GET', url: `/api/sites/${siteId}/installations` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function newSite(user: TestUser): Promise<string> {
  return w.f.site(user, await w.f.client(user));
}

describe('POST /api/installations', () => {
  it('creates an installation and answers it with its métier name', async () => {
    const siteId = await newSite(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/installations', payload: body(siteId, { delai: '6' }) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      nom: 'SSI catégorie A',
      id_metier: w.metierId,
      metier_nom: metierNom,
      description: 'Centrale Esser IQ8, 4 boucles',
      delai: 6,
      astreinte: 1,
      site_id: siteId,
      version: 0,
    });
    expect((await installationsOf(w.adminA, siteId)).map((i) => i.id)).toEqual([res.json().id]);
  });

  it('answers 400 with each rule’s French message and creates nothing', async () => {
    const siteId = await newSite(w.adminA);
    const cases: [Record<string, unknown>, string][] = [
      [{ nom: '' }, "Le nom de l'installation est obligatoire."],
      [{ id_metier: '' }, 'Veuillez sélectionner un métier.'],
      [{ description: ' ' }, 'La description est obligatoire.'],
      [{ delai: '' }, 'Le délai est obligatoire.'],
      [{ delai: 0 }, "Le délai doit être un nombre entier d'heures, d'au moins 1 heure."],
      [{ delai: 'deux' }, "Le délai doit être un nombre entier d'heures, d'au moins 1 heure."],
      [{ astreinte: 2 }, "L'astreinte vaut 0 ou 1."],
      [{ site_id: null }, 'Veuillez sélectionner un site.'],
    ];
    for (const [overrides, message] of cases) {
      const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/installations', payload: body(siteId, overrides) });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(errorOf(res)).toBe(message);
    }
    expect(await installationsOf(w.adminA, siteId)).toEqual([]);
  });

  it('answers 404 for a site of another agency or an unknown métier, 403 without clients.edit, 401 without token', async () => {
    const siteB = await newSite(w.adminB);
    const other = await w.h.request(w.adminA, { method: 'POST', url: '/api/installations', payload: body(siteB) });
    expect(other.statusCode).toBe(404);
    expect(errorOf(other)).toBe('Site introuvable.');
    const siteA = await newSite(w.adminA);
    const noMetier = await w.h.request(w.adminA, { method: 'POST', url: '/api/installations', payload: body(siteA, { id_metier: randomUUID() }) });
    expect(noMetier.statusCode).toBe(404);
    expect(errorOf(noMetier)).toBe('Métier introuvable.');
    expect((await w.h.request(w.techPlusA, { method: 'POST', url: '/api/installations', payload: body(siteA) })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'POST', url: '/api/installations', payload: body(siteA) })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'POST', url: '/api/installations', payload: body(siteA) })).statusCode).toBe(401);
    expect(await installationsOf(w.adminA, siteA)).toEqual([]);
    expect(await installationsOf(w.adminB, siteB)).toEqual([]);
  });
});

describe('PUT /api/installations/{id}', () => {
  it('updates the installation and answers it', async () => {
    const siteId = await newSite(w.adminA);
    const id = await w.f.installation(w.adminA, siteId, w.metierId);
    const res = await w.h.request(w.adminA, { method: 'PUT', url: `/api/installations/${id}`, payload: body(siteId, { delai: 48, astreinte: 0 }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, delai: 48, astreinte: 0, metier_nom: metierNom });
    expect((await installationsOf(w.adminA, siteId))[0]).toMatchObject({ delai: 48, astreinte: 0 });
  });

  it('answers 400 unchanged, 404 out of scope or unknown, 403 without clients.edit, 401 without token', async () => {
    const siteId = await newSite(w.adminA);
    const id = await w.f.installation(w.adminA, siteId, w.metierId, { delai: 4 });
    const bad = await w.h.request(w.adminA, { method: 'PUT', url: `/api/installations/${id}`, payload: body(siteId, { delai: -3 }) });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe("Le délai doit être un nombre entier d'heures, d'au moins 1 heure.");
    expect((await installationsOf(w.adminA, siteId))[0]?.delai).toBe(4);
    expect((await w.h.request(w.adminB, { method: 'PUT', url: `/api/installations/${id}`, payload: body(siteId) })).statusCode).toBe(404);
    const siteB = await newSite(w.adminB);
    const moveOut = await w.h.request(w.adminA, { method: 'PUT', url: `/api/installations/${id}`, payload: body(siteB) });
    expect(moveOut.statusCode).toBe(404);
    expect(errorOf(moveOut)).toBe('Site introuvable.');
    expect((await w.h.request(w.adminA, { method: 'PUT', url: `/api/installations/${randomUUID()}`, payload: body(siteId) })).statusCode).toBe(404);
    expect((await w.h.request(w.techPlusA, { method: 'PUT', url: `/api/installations/${id}`, payload: body(siteId) })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'PUT', url: `/api/installations/${id}`, payload: body(siteId) })).statusCode).toBe(401);
  });
});

describe('DELETE /api/installations/{id}', () => {
  it('deletes the installation', async () => {
    const siteId = await newSite(w.adminA);
    const id = await w.f.installation(w.adminA, siteId, w.metierId);
    const res = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/installations/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await installationsOf(w.adminA, siteId)).toEqual([]);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/installations/${id}` })).statusCode).toBe(404);
  });

  it('refuses while a ticket is open on it (409), allows it once closed', async () => {
    const { siteId, installationId } = await w.f.tree(w.adminA, w.metierId);
    const ticketId = await w.f.openTicket(installationId);
    const refused = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/installations/${installationId}` });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toBe('Impossible de supprimer cette installation : des tickets sont encore ouverts.');
    expect(await installationsOf(w.adminA, siteId)).toHaveLength(1);
    await w.f.closeTicket(ticketId);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/installations/${installationId}` })).statusCode).toBe(200);
  });

  it('answers 404 out of scope, 403 without clients.edit, 401 without token; admin_plus may', async () => {
    const siteId = await newSite(w.adminA);
    const id = await w.f.installation(w.adminA, siteId, w.metierId);
    expect((await w.h.request(w.adminB, { method: 'DELETE', url: `/api/installations/${id}` })).statusCode).toBe(404);
    expect((await w.h.request(w.techPlusA, { method: 'DELETE', url: `/api/installations/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'DELETE', url: `/api/installations/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/installations/${id}` })).statusCode).toBe(401);
    expect(await installationsOf(w.adminA, siteId)).toHaveLength(1);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/installations/${id}` })).statusCode).toBe(200);
  });
});
