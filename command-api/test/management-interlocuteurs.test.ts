import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestUser } from '../src/test-support/api-harness.js';
import { errorOf, useClientWorld } from './support/client-fixtures.js';

const w = useClientWorld('api_mgmt_interlocuteurs');

/** A client with two sites, the first with two installations. */
async function clientWithEquipment(user: TestUser) {
  const clientId = await w.f.client(user);
  const site1 = await w.f.site(user, clientId, { nom: 'Site 1' });
  const site2 = await w.f.site(user, clientId, { nom: 'Site 2' });
  const inst1 = await w.f.installation(user, site1, w.metierId, { nom: 'Installation 1' });
  const inst2 = await w.f.installation(user, site1, w.metierId, { nom: 'Installation 2' });
  return { clientId, site1, site2, inst1, inst2 };
}

const body = (clientId: string, overrides: Record<string, unknown> = {}) => ({
  nom: 'Girard',
  prenom: 'Hélène',
  fonction: 'Responsable sécurité',
  telephone: '04 72 00 11 22',
  email: 'Helene.Girard@Client.FR',
  client_id: clientId,
  affect_sites: [],
  affect_installations: [],
  ...overrides,
});

async function list(user: TestUser, path: string): Promise<{ id: string }[]> {
  const res = await w.h.request(user, { method: 'GET', url: `/api/interlocuteurs/${path}` });
  expect(res.statusCode, `${path} ${res.body}`).toBe(200);
  return res.json();
}

describe('POST /api/interlocuteurs', () => {
  it('creates a contact with its affectations and answers it', async () => {
    const t = await clientWithEquipment(w.adminA);
    const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/interlocuteurs', payload: body(t.clientId, { affect_sites: [t.site2], affect_installations: [t.inst1] }) });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      client_id: t.clientId,
      nom: 'Girard',
      prenom: 'Hélène',
      fonction: 'Responsable sécurité',
      telephone: '04 72 00 11 22',
      email: 'helene.girard@client.fr',
      affectations: [
        { niveau: 'site', niveau_id: t.site2 },
        { niveau: 'installation', niveau_id: t.inst1 },
      ],
      nb_sites: 1,
      nb_installations: 1,
      sites_affectes: [{ id: t.site2, nom: 'Site 2' }],
      installations_affectees: [{ id: t.inst1, nom: 'Installation 1' }],
      version: 0,
    });
  });

  it('answers 400 with the French message and creates nothing', async () => {
    const t = await clientWithEquipment(w.adminA);
    const other = await clientWithEquipment(w.adminA);
    const cases: [Record<string, unknown>, string][] = [
      [{ nom: '' }, 'Le nom et le prénom sont obligatoires.'],
      [{ prenom: '  ' }, 'Le nom et le prénom sont obligatoires.'],
      [{ email: 'pas-un-email' }, 'Adresse e-mail invalide.'],
      [{ affect_sites: ['x'] }, 'Affectation invalide.'],
      // Another client's site or installation, even in the same agency.
      [{ affect_sites: [other.site1] }, 'Affectation invalide.'],
      [{ affect_installations: [other.inst1] }, 'Affectation invalide.'],
      [{ affect_installations: [t.site1] }, 'Affectation invalide.'],
    ];
    for (const [overrides, message] of cases) {
      const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/interlocuteurs', payload: body(t.clientId, overrides) });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(errorOf(res)).toBe(message);
    }
    expect(await list(w.adminA, `client/${t.clientId}`)).toEqual([]);
  });

  it('answers 404 for a client of another agency, 403 without clients.edit, 401 without token', async () => {
    const b = await clientWithEquipment(w.adminB);
    const res = await w.h.request(w.adminA, { method: 'POST', url: '/api/interlocuteurs', payload: body(b.clientId) });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toBe('Client introuvable.');
    const a = await w.f.client(w.adminA);
    expect((await w.h.request(w.techA, { method: 'POST', url: '/api/interlocuteurs', payload: body(a) })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'POST', url: '/api/interlocuteurs', payload: body(a) })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'POST', url: '/api/interlocuteurs', payload: body(a) })).statusCode).toBe(401);
    expect(await list(w.adminB, `client/${b.clientId}`)).toEqual([]);
  });
});

describe('GET /api/interlocuteurs/{installation,site,site-only,client}/{id}', () => {
  it('lists each level for staff and télésurveillance of the agency', async () => {
    const t = await clientWithEquipment(w.adminA);
    const onClient = await w.f.interlocuteur(w.adminA, t.clientId, { nom: 'Aucun' });
    const onSite = await w.f.interlocuteur(w.adminA, t.clientId, { nom: 'Bsite', affect_sites: [t.site1] });
    const onInst = await w.f.interlocuteur(w.adminA, t.clientId, { nom: 'Cinst', affect_installations: [t.inst1] });
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    for (const user of [w.adminA, w.techA, w.telesurvA, w.adminPlus]) {
      expect(ids(await list(user, `client/${t.clientId}`)), user.role).toEqual([onClient, onSite, onInst]);
      expect(ids(await list(user, `site/${t.site1}`))).toEqual([onSite, onInst]);
      expect(ids(await list(user, `site-only/${t.site1}`))).toEqual([onSite]);
      expect(ids(await list(user, `installation/${t.inst1}`))).toEqual([onInst]);
      expect(ids(await list(user, `installation/${t.inst2}`))).toEqual([]);
      expect(ids(await list(user, `site/${t.site2}`))).toEqual([]);
    }
  });

  it('answers 404 for another agency’s or an unknown parent, 401 without token', async () => {
    const b = await clientWithEquipment(w.adminB);
    const cases: [string, string][] = [
      [`client/${b.clientId}`, 'Client introuvable.'],
      [`site/${b.site1}`, 'Site introuvable.'],
      [`site-only/${b.site1}`, 'Site introuvable.'],
      [`installation/${b.inst1}`, 'Installation introuvable.'],
      [`client/${randomUUID()}`, 'Client introuvable.'],
    ];
    for (const [path, message] of cases) {
      for (const user of [w.adminA, w.telesurvA]) {
        const res = await w.h.request(user, { method: 'GET', url: `/api/interlocuteurs/${path}` });
        expect(res.statusCode, `${user.role} ${path}`).toBe(404);
        expect(errorOf(res)).toBe(message);
      }
    }
    expect((await w.h.request(null, { method: 'GET', url: `/api/interlocuteurs/client/${b.clientId}` })).statusCode).toBe(401);
  });
});

describe('PUT /api/interlocuteurs/{id}', () => {
  it('replaces the contact and its whole set of affectations', async () => {
    const t = await clientWithEquipment(w.adminA);
    const id = await w.f.interlocuteur(w.adminA, t.clientId, { affect_sites: [t.site1], affect_installations: [t.inst1] });
    const res = await w.h.request(w.adminA, { method: 'PUT', url: `/api/interlocuteurs/${id}`, payload: body(t.clientId, { affect_installations: [t.inst2] }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, nom: 'Girard', affectations: [{ niveau: 'installation', niveau_id: t.inst2 }], nb_sites: 0, nb_installations: 1 });
    expect(await list(w.adminA, `installation/${t.inst1}`)).toEqual([]);
    expect((await list(w.adminA, `installation/${t.inst2}`)).map((row) => row.id)).toEqual([id]);
  });

  it('answers 400 unchanged, 404 out of scope or unknown, 403 without clients.edit, 401 without token', async () => {
    const t = await clientWithEquipment(w.adminA);
    const id = await w.f.interlocuteur(w.adminA, t.clientId, { nom: 'Stable' });
    const bad = await w.h.request(w.adminA, { method: 'PUT', url: `/api/interlocuteurs/${id}`, payload: body(t.clientId, { prenom: '' }) });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe('Le nom et le prénom sont obligatoires.');
    const b = await clientWithEquipment(w.adminB);
    const foreign = await w.h.request(w.adminA, { method: 'PUT', url: `/api/interlocuteurs/${id}`, payload: body(t.clientId, { affect_sites: [b.site1] }) });
    expect(foreign.statusCode).toBe(400);
    expect(errorOf(foreign)).toBe('Affectation invalide.');
    expect((await list(w.adminA, `client/${t.clientId}`))[0]).toMatchObject({ nom: 'Stable', prenom: 'Anne', affectations: [] });
    expect((await w.h.request(w.adminB, { method: 'PUT', url: `/api/interlocuteurs/${id}`, payload: body(b.clientId) })).statusCode).toBe(404);
    expect((await w.h.request(w.adminA, { method: 'PUT', url: `/api/interlocuteurs/${randomUUID()}`, payload: body(t.clientId) })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'PUT', url: `/api/interlocuteurs/${id}`, payload: body(t.clientId) })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'PUT', url: `/api/interlocuteurs/${id}`, payload: body(t.clientId) })).statusCode).toBe(401);
  });
});

describe('DELETE /api/interlocuteurs/{id}', () => {
  it('deletes the contact; 404 out of scope, 403 without clients.edit, 401 without token', async () => {
    const clientId = await w.f.client(w.adminA);
    const id = await w.f.interlocuteur(w.adminA, clientId);
    expect((await w.h.request(w.adminB, { method: 'DELETE', url: `/api/interlocuteurs/${id}` })).statusCode).toBe(404);
    expect((await w.h.request(w.techA, { method: 'DELETE', url: `/api/interlocuteurs/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(w.telesurvA, { method: 'DELETE', url: `/api/interlocuteurs/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/interlocuteurs/${id}` })).statusCode).toBe(401);
    expect(await list(w.adminA, `client/${clientId}`)).toHaveLength(1);
    const res = await w.h.request(w.adminA, { method: 'DELETE', url: `/api/interlocuteurs/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await list(w.adminA, `client/${clientId}`)).toEqual([]);
    expect((await w.h.request(w.adminA, { method: 'DELETE', url: `/api/interlocuteurs/${id}` })).statusCode).toBe(404);
  });
});
