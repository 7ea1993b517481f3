import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness, type TestUser } from '../src/test-support/api-harness.js';
import { clientFixtures, errorOf, type ClientFixtures } from './support/client-fixtures.js';

let h: ApiHarness;
let f: ClientFixtures;
let adminPlus: TestUser;
let admin: TestUser;
let editor: TestUser;
let tech: TestUser;
let telesurv: TestUser;

beforeAll(async () => {
  h = await createApiHarness('api_mgmt_metiers');
  f = clientFixtures(h);
  const agence = await h.createAgence('Agence Lyon Centre');
  adminPlus = await h.createUser({ role: 'admin_plus', agenceId: agence });
  admin = await h.createUser({ role: 'admin', agenceId: agence });
  // An agency admin granted metier.edit by admin_plus.
  editor = await h.createUser({ role: 'admin', agenceId: agence, permissions: ['clients.view', 'clients.edit', 'metier.edit'] });
  tech = await h.createUser({ role: 'technicien', agenceId: agence });
  telesurv = await h.createUser({ role: 'telesurveillance', telesurvAgences: [agence] });
});
afterAll(async () => h?.close());

interface MetierJson {
  id: string;
  nom: string;
  ordre: number | null;
  delai_inter: number | null;
  HO_stats: 0 | 1;
}

async function metiers(user: TestUser = tech): Promise<MetierJson[]> {
  const res = await h.request(user, { method: 'GET', url: '/api/metiers' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const unique = (nom: string) => `${nom} ${randomUUID().slice(0, 6)}`;

describe('GET /api/metiers', () => {
  it('serves every signed-in user, télésurveillance included, in table order', async () => {
    const late = await f.metier(adminPlus, { nom: unique('Zeta'), ordre: null });
    const first = await f.metier(adminPlus, { nom: unique('Omega'), ordre: -100 });
    for (const user of [tech, telesurv, admin, adminPlus]) {
      const list = await metiers(user);
      expect(list[0]?.id, user.role).toBe(first);
      expect(list.at(-1)?.id).toBe(late);
    }
    expect((await h.request(null, { method: 'GET', url: '/api/metiers' })).statusCode).toBe(401);
  });
});

describe('POST /api/metiers', () => {
  it('creates a trade, floors delai_inter, and sends empty values as null', async () => {
    const nom = unique('Extincteurs');
    const res = await h.request(adminPlus, { method: 'POST', url: '/api/metiers', payload: { nom, ordre: '', delai_inter: '24.9' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), nom, ordre: null, delai_inter: 24, HO_stats: 0, version: expect.any(Number) });
    const withEditor = await h.request(editor, { method: 'POST', url: '/api/metiers', payload: { nom: unique('RIA'), ordre: 3, delai_inter: '', HO_stats: true } });
    expect(withEditor.statusCode).toBe(201);
    expect(withEditor.json()).toMatchObject({ ordre: 3, delai_inter: null, HO_stats: 1 });
    expect((await metiers()).map((m) => m.id)).toEqual(expect.arrayContaining([res.json().id, withEditor.json().id]));
  });

  it('answers 400 with the French message and creates nothing', async () => {
    const taken = await f.metier(adminPlus, { nom: unique('Désenfumage') });
    const takenNom = (await metiers()).find((m) => m.id === taken)!.nom;
    const before = await metiers();
    const cases: [Record<string, unknown>, string][] = [
      [{ nom: '' }, 'Le nom du métier est obligatoire.'],
      [{ nom: 'X', delai_inter: -1 }, "Le délai d'intervention doit être positif ou nul."],
      [{ nom: 'X', delai_inter: 'vite' }, "Le délai d'intervention doit être un nombre."],
      [{ nom: 'X', ordre: 1.5 }, "L'ordre doit être un nombre entier."],
      [{ nom: 'X', HO_stats: 3 }, 'HO_stats vaut 0 ou 1.'],
      [{ nom: takenNom.toUpperCase() }, 'Un métier porte déjà ce nom.'],
    ];
    for (const [payload, message] of cases) {
      const res = await h.request(adminPlus, { method: 'POST', url: '/api/metiers', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorOf(res)).toBe(message);
    }
    expect(await metiers()).toEqual(before);
  });

  it('answers 403 without metier.edit (agency admins by default, télésurveillance) and 401 without token', async () => {
    for (const user of [admin, tech, telesurv]) {
      const res = await h.request(user, { method: 'POST', url: '/api/metiers', payload: { nom: unique('Interdit') } });
      expect(res.statusCode, user.role).toBe(403);
      expect(errorOf(res)).toBe('Accès refusé.');
    }
    expect((await h.request(null, { method: 'POST', url: '/api/metiers', payload: { nom: unique('Interdit') } })).statusCode).toBe(401);
  });
});

describe('concurrent changes of the catalogue', () => {
  it('never loses a write: each change is either in the list or refused with 409', async () => {
    const noms = Array.from({ length: 6 }, () => unique('Concurrent'));
    const answers = await Promise.all(noms.map((nom) => h.request(adminPlus, { method: 'POST', url: '/api/metiers', payload: { nom } })));
    const listed = new Set((await metiers()).map((m) => m.nom));
    for (const [index, res] of answers.entries()) {
      if (res.statusCode === 201) expect(listed.has(noms[index]!)).toBe(true);
      else {
        expect(res.statusCode).toBe(409);
        expect(errorOf(res)).toBe('Ces données ont été modifiées entre-temps par quelqu’un d’autre. Rechargez la page puis réessayez.');
        expect(listed.has(noms[index]!)).toBe(false);
      }
    }
    expect(answers.some((res) => res.statusCode === 201)).toBe(true);
  });
});

describe('PUT /api/metiers/{id}', () => {
  it('updates a trade, including the HO_stats toggle', async () => {
    const nom = unique('Alarme incendie');
    const id = await f.metier(adminPlus, { nom, delai_inter: 4, HO_stats: 0 });
    const res = await h.request(adminPlus, { method: 'PUT', url: `/api/metiers/${id}`, payload: { nom, ordre: 2, delai_inter: 4, HO_stats: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, nom, ordre: 2, delai_inter: 4, HO_stats: 1, version: expect.any(Number) });
    expect((await metiers()).find((m) => m.id === id)?.HO_stats).toBe(1);
  });

  it('answers 400 unchanged, 404 unknown, 403 without metier.edit, 401 without token', async () => {
    const nom = unique('Éclairage de sécurité');
    const id = await f.metier(adminPlus, { nom, delai_inter: 48 });
    const bad = await h.request(adminPlus, { method: 'PUT', url: `/api/metiers/${id}`, payload: { nom, delai_inter: -5 } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe("Le délai d'intervention doit être positif ou nul.");
    expect((await metiers()).find((m) => m.id === id)?.delai_inter).toBe(48);
    const unknown = await h.request(adminPlus, { method: 'PUT', url: `/api/metiers/${randomUUID()}`, payload: { nom: unique('Inconnu') } });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('Métier introuvable.');
    expect((await h.request(admin, { method: 'PUT', url: `/api/metiers/${id}`, payload: { nom } })).statusCode).toBe(403);
    expect((await h.request(null, { method: 'PUT', url: `/api/metiers/${id}`, payload: { nom } })).statusCode).toBe(401);
  });
});

describe('PUT /api/metiers/reorder', () => {
  it('is not taken for /api/metiers/{id}: renumbers the trades and answers the list', async () => {
    const a = await f.metier(adminPlus, { nom: unique('A'), ordre: 1001 });
    const b = await f.metier(adminPlus, { nom: unique('B'), ordre: 1002 });
    const res = await h.request(adminPlus, { method: 'PUT', url: '/api/metiers/reorder', payload: [{ id: b, ordre: 1001 }, { id: a, ordre: '1002' }] });
    expect(res.statusCode).toBe(200);
    const list = res.json() as MetierJson[];
    expect(list.find((m) => m.id === a)?.ordre).toBe(1002);
    expect(list.find((m) => m.id === b)?.ordre).toBe(1001);
    const ids = list.map((m) => m.id);
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    expect(await metiers()).toEqual(list);
  });

  it('answers 400 for a bad list, 404 for an unknown trade (nothing changed), 403 without metier.edit, 401 without token', async () => {
    const a = await f.metier(adminPlus, { nom: unique('C'), ordre: 2001 });
    const before = await metiers();
    const notList = await h.request(adminPlus, { method: 'PUT', url: '/api/metiers/reorder', payload: { id: a, ordre: 1 } });
    expect(notList.statusCode).toBe(400);
    expect(errorOf(notList)).toBe('Le nouvel ordre doit être une liste.');
    const twice = await h.request(adminPlus, { method: 'PUT', url: '/api/metiers/reorder', payload: [{ id: a, ordre: 1 }, { id: a, ordre: 2 }] });
    expect(twice.statusCode).toBe(400);
    expect(errorOf(twice)).toBe("Chaque métier ne peut figurer qu'une fois dans le nouvel ordre.");
    const unknown = await h.request(adminPlus, { method: 'PUT', url: '/api/metiers/reorder', payload: [{ id: a, ordre: 5 }, { id: randomUUID(), ordre: 6 }] });
    expect(unknown.statusCode).toBe(404);
    expect(await metiers()).toEqual(before);
    expect((await h.request(admin, { method: 'PUT', url: '/api/metiers/reorder', payload: [{ id: a, ordre: 1 }] })).statusCode).toBe(403);
    expect((await h.request(null, { method: 'PUT', url: '/api/metiers/reorder', payload: [{ id: a, ordre: 1 }] })).statusCode).toBe(401);
  });
});

describe('DELETE /api/metiers/{id}', () => {
  it('deletes an unused trade', async () => {
    const id = await f.metier(adminPlus, { nom: unique('Temporaire') });
    const res = await h.request(adminPlus, { method: 'DELETE', url: `/api/metiers/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await metiers()).map((m) => m.id)).not.toContain(id);
    expect((await h.request(adminPlus, { method: 'DELETE', url: `/api/metiers/${id}` })).statusCode).toBe(404);
  });

  it('refuses a trade an installation uses (409), 403 without metier.edit, 401 without token', async () => {
    const id = await f.metier(adminPlus, { nom: unique('Utilisé') });
    await f.tree(adminPlus, id, adminPlus.agenceId!);
    const res = await h.request(adminPlus, { method: 'DELETE', url: `/api/metiers/${id}` });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toBe("Impossible de supprimer ce métier : des installations l'utilisent encore.");
    expect((await h.request(admin, { method: 'DELETE', url: `/api/metiers/${id}` })).statusCode).toBe(403);
    expect((await h.request(telesurv, { method: 'DELETE', url: `/api/metiers/${id}` })).statusCode).toBe(403);
    expect((await h.request(null, { method: 'DELETE', url: `/api/metiers/${id}` })).statusCode).toBe(401);
    expect((await metiers()).map((m) => m.id)).toContain(id);
  });
});
