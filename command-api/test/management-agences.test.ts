import { describe, expect, it } from 'vitest';
import { defaultAgenceHoraires } from '@fsm/contracts';
import type { TestUser } from '../src/test-support/api-harness.js';
import { useAgencyWorld } from './support/agency-world.js';
import { clientFixtures } from './support/client-fixtures.js';

const FORBIDDEN = "Accès refusé: vous n'avez pas la permission de créer/modifier/supprimer une agence.";
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const body = (overrides: Record<string, unknown> = {}) => ({
  nom: 'Agence Grenoble',
  adresse: '5 place Victor Hugo',
  cp_postal: '38000',
  ville: 'Grenoble',
  telephone: '04 76 00 00 00',
  ...overrides,
});

const w = useAgencyWorld('api_mgmt_agences', { lyon: 'Agence Lyon', annecy: 'Agence Annecy' }, ({ lyon, annecy }) => ({
  adminPlus: { role: 'admin_plus', agenceId: lyon },
  admin: { role: 'admin', agenceId: lyon },
  adminOther: { role: 'admin', agenceId: annecy },
  tech: { role: 'technicien', agenceId: lyon },
  viewer: { role: 'technicien_plus', agenceId: lyon, permissions: ['agences.view'] },
  builder: { role: 'admin', agenceId: lyon, permissions: ['templates.manage'] },
  telesurv: { role: 'telesurveillance', telesurvAgences: [annecy] },
}));

const agencesOf = async (user: TestUser) => (await w.h.request(user, { method: 'GET', url: '/api/agences' })).json() as { id: string; nom: string }[];

async function createTemplate(): Promise<string> {
  const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/templates', payload: { name: 'Modèle agence', content_html: '<p>{{ticket.num_chrono}}</p>' } });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

describe('GET /api/agences', () => {
  it('lists every agency for admin_plus, with the §3 fields', async () => {
    const res = await w.h.request(w.adminPlus, { method: 'GET', url: '/api/agences' });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list.map((a) => a['id'])).toEqual(expect.arrayContaining([w.lyon, w.annecy]));
    expect(list.find((a) => a['id'] === w.lyon)).toEqual({
      id: w.lyon,
      nom: 'Agence Lyon',
      adresse: '12 rue des Pompiers',
      cp_postal: '69003',
      ville: 'Lyon',
      telephone: '04 78 00 00 00',
      id_template: null,
      version: expect.any(Number),
    });
  });

  it('lists only their own agency for the others, and its assigned ones for télésurveillance', async () => {
    expect((await agencesOf(w.admin)).map((a) => a.id)).toEqual([w.lyon]);
    expect((await agencesOf(w.viewer)).map((a) => a.id)).toEqual([w.lyon]);
    expect((await agencesOf(w.builder)).map((a) => a.id)).toEqual([w.lyon]);
    expect((await agencesOf(w.telesurv)).map((a) => a.id)).toEqual([w.annecy]);
  });

  it('answers 401 without a token and 403 without agences.view', async () => {
    expect((await w.h.request(null, { method: 'GET', url: '/api/agences' })).statusCode).toBe(401);
    const res = await w.h.request(w.tech, { method: 'GET', url: '/api/agences' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Accès refusé.');
  });
});

describe('POST /api/agences', () => {
  it('creates an agency open Monday to Friday with the default hours (201)', async () => {
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/agences', payload: body({ nom: '  Agence Grenoble ' }) });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({ id: expect.any(String), ...body(), id_template: null, version: expect.any(Number) });
    expect((await agencesOf(w.adminPlus)).map((a) => a.id)).toContain(created.id);
    const hours = await w.h.request(w.adminPlus, { method: 'GET', url: `/api/agences/${created.id}/horaires` });
    expect(hours.json()).toEqual(defaultAgenceHoraires());
  });

  it.each([
    ['nom', "Le nom de l'agence est obligatoire."],
    ['adresse', "L'adresse de l'agence est obligatoire."],
    ['cp_postal', "Le code postal de l'agence est obligatoire."],
    ['ville', "La ville de l'agence est obligatoire."],
    ['telephone', "Le téléphone de l'agence est obligatoire."],
  ])('refuses a missing %s with 400 and creates nothing', async (field, message) => {
    const before = (await agencesOf(w.adminPlus)).length;
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/agences', payload: body({ [field]: '  ' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect((await agencesOf(w.adminPlus)).length).toBe(before);
  });

  it('refuses an unknown template', async () => {
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/agences', payload: body({ id_template: UNKNOWN }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Modèle de document invalide.');
  });

  it('answers 401 without a token, and 403 with the spec message to anyone but admin_plus', async () => {
    expect((await w.h.request(null, { method: 'POST', url: '/api/agences', payload: body() })).statusCode).toBe(401);
    for (const user of [w.admin, w.tech, w.viewer, w.telesurv]) {
      const res = await w.h.request(user, { method: 'POST', url: '/api/agences', payload: body({ nom: '' }) });
      expect(res.statusCode, user.role).toBe(403);
      expect(res.json().error).toBe(FORBIDDEN);
    }
  });
});

describe('PUT /api/agences/{id}', () => {
  it('saves the agency for agences.edit in its own agency', async () => {
    const res = await w.h.request(w.admin, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: body({ nom: 'Agence Lyon', ville: 'Lyon 3e' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: w.lyon, ...body({ nom: 'Agence Lyon', ville: 'Lyon 3e' }), id_template: null, version: expect.any(Number) });
    expect((await agencesOf(w.admin))[0]).toMatchObject({ ville: 'Lyon 3e', cp_postal: '38000' });
  });

  it('assigns and unassigns a template with the full agency object, as the template builder sends it', async () => {
    const templateId = await createTemplate();
    const agence = (await agencesOf(w.adminPlus)).find((a) => a.id === w.annecy)!;
    const assign = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${w.annecy}`, payload: { ...agence, id_template: templateId } });
    expect(assign.statusCode).toBe(200);
    expect(assign.json().id_template).toBe(templateId);
    // A save from the agencies form (no id_template) keeps the template. Each save sends the version the previous one answered.
    const { id_template: _omitted, id: _id, ...form } = { ...agence, id_template: null };
    const kept = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${w.annecy}`, payload: { ...form, telephone: '04 50 00 00 00', version: assign.json().version } });
    expect(kept.json().id_template).toBe(templateId);
    const unassign = await w.h.request(w.adminPlus, {
      method: 'PUT',
      url: `/api/agences/${w.annecy}`,
      payload: { ...form, telephone: '04 50 00 00 00', id_template: null, version: kept.json().version },
    });
    expect(unassign.statusCode).toBe(200);
    expect((await agencesOf(w.adminPlus)).find((a) => a.id === w.annecy)).toMatchObject({ id_template: null, telephone: '04 50 00 00 00' });
  });

  it('lets templates.manage change the template only', async () => {
    const templateId = await createTemplate();
    const agence = (await agencesOf(w.builder))[0]!;
    const noEdit = { ...w.builder };
    // builder is an admin whose set was replaced by templates.manage only: no agences.edit.
    const ok = await w.h.request(noEdit, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: { ...agence, id_template: templateId } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().id_template).toBe(templateId);
    const renamed = await w.h.request(noEdit, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: { ...agence, nom: 'Autre nom', id_template: null, version: ok.json().version } });
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json().error).toBe(FORBIDDEN);
    await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: { ...agence, id_template: null, version: ok.json().version } });
  });

  it('refuses an invalid body with 400 and changes nothing', async () => {
    const before = (await agencesOf(w.adminPlus)).find((a) => a.id === w.lyon);
    const res = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: body({ telephone: '' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("Le téléphone de l'agence est obligatoire.");
    const template = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: body({ id_template: 'pas-un-id' }) });
    expect(template.statusCode).toBe(400);
    expect(template.json().error).toBe('Modèle de document invalide.');
    expect((await agencesOf(w.adminPlus)).find((a) => a.id === w.lyon)).toEqual(before);
  });

  it('answers 401, 403 with the spec message, 404 for another agency or an unknown one', async () => {
    expect((await w.h.request(null, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: body() })).statusCode).toBe(401);
    for (const user of [w.tech, w.viewer, w.telesurv]) {
      const res = await w.h.request(user, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: body() });
      expect(res.statusCode, user.role).toBe(403);
      expect(res.json().error).toBe(FORBIDDEN);
    }
    const other = await w.h.request(w.adminOther, { method: 'PUT', url: `/api/agences/${w.lyon}`, payload: body() });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Agence introuvable.');
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${UNKNOWN}`, payload: body() })).statusCode).toBe(404);
    const badId = await w.h.request(w.adminPlus, { method: 'PUT', url: '/api/agences/42', payload: body() });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error).toBe('Identifiant invalide.');
  });

  it('never loses an update under concurrent saves: each answers 200 or 409', async () => {
    const agenceId = (await (await w.h.request(w.adminPlus, { method: 'POST', url: '/api/agences', payload: body({ nom: 'Agence concurrente' }) })).json()).id as string;
    const saves = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${agenceId}`, payload: body({ nom: 'Agence concurrente', telephone: `04 00 00 00 0${n}` }) })),
    );
    for (const res of saves) {
      expect([200, 409]).toContain(res.statusCode);
      if (res.statusCode === 409) expect(res.json().error).toMatch(/modifiées entre-temps/);
    }
    const { rows } = await w.h.pool.query<{ n: string }>(`SELECT count(*) AS n FROM es.events WHERE stream_id = $1 AND type = 'AgenceUpdated'`, [`agence-${agenceId}`]);
    expect(Number(rows[0]!.n)).toBe(saves.filter((res) => res.statusCode === 200).length);
  });
});

describe('DELETE /api/agences/{id}', () => {
  it('deletes an empty agency', async () => {
    const agenceId = (await (await w.h.request(w.adminPlus, { method: 'POST', url: '/api/agences', payload: body({ nom: 'Agence éphémère' }) })).json()).id as string;
    const res = await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/agences/${agenceId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await agencesOf(w.adminPlus)).map((a) => a.id)).not.toContain(agenceId);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/agences/${agenceId}` })).statusCode).toBe(404);
  });

  it('refuses with 409 while users or clients are attached', async () => {
    const withUser = await w.h.createAgence('Agence avec utilisateur');
    await w.h.createUser({ role: 'technicien', agenceId: withUser });
    const users = await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/agences/${withUser}` });
    expect(users.statusCode).toBe(409);
    expect(users.json().error).toBe('Impossible de supprimer cette agence : des utilisateurs y sont encore rattachés.');

    const withClient = await w.h.createAgence('Agence avec client');
    await clientFixtures(w.h).client(w.adminPlus, { agence_id: withClient });
    const clients = await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/agences/${withClient}` });
    expect(clients.statusCode).toBe(409);
    expect(clients.json().error).toBe('Impossible de supprimer cette agence : des clients y sont encore rattachés.');
    expect((await agencesOf(w.adminPlus)).map((a) => a.id)).toEqual(expect.arrayContaining([withUser, withClient]));
  });

  it('answers 401, 403 with the spec message, 404 out of scope', async () => {
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/agences/${w.annecy}` })).statusCode).toBe(401);
    for (const user of [w.tech, w.viewer, w.builder, w.telesurv]) {
      const res = await w.h.request(user, { method: 'DELETE', url: `/api/agences/${w.annecy}` });
      expect(res.statusCode, user.role).toBe(403);
      expect(res.json().error).toBe(FORBIDDEN);
    }
    expect((await w.h.request(w.admin, { method: 'DELETE', url: `/api/agences/${w.annecy}` })).statusCode).toBe(404);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/agences/${UNKNOWN}` })).statusCode).toBe(404);
  });
});

describe('GET and PUT /api/agences/{id}/horaires', () => {
  const monday = { day_of_week: 1, morning_open: '09:00', morning_close: '12:00', afternoon_open: null, afternoon_close: null };
  const closed = (day: number) => ({ day_of_week: day, morning_open: null, morning_close: null, afternoon_open: null, afternoon_close: null });

  it('replaces the week: a day left out is closed, unticked half-days are null', async () => {
    const agenceId = await w.h.createAgence('Agence horaires');
    const res = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${agenceId}/horaires`, payload: [monday, { ...closed(3), afternoon_open: '13:30', afternoon_close: '17:30' }] });
    expect(res.statusCode).toBe(200);
    const week = [monday, closed(2), { ...closed(3), afternoon_open: '13:30', afternoon_close: '17:30' }, closed(4), closed(5)];
    expect(res.json()).toEqual(week);
    const read = await w.h.request(w.adminPlus, { method: 'GET', url: `/api/agences/${agenceId}/horaires` });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(week);
  });

  it('lets agences.view read and agences.edit write their own agency', async () => {
    expect((await w.h.request(w.viewer, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).statusCode).toBe(200);
    const res = await w.h.request(w.admin, { method: 'PUT', url: `/api/agences/${w.lyon}/horaires`, payload: { horaires: defaultAgenceHoraires() } });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    [[{ day_of_week: 6 }], 'Les horaires ne concernent que les jours du lundi (1) au vendredi (5).'],
    [[{ day_of_week: 1, morning_open: '08:00', morning_close: null }], "L'ouverture et la fermeture du matin doivent être renseignées ensemble."],
    [[{ day_of_week: 2, morning_open: '12:00', morning_close: '08:00' }], "La fermeture du matin doit être après l'ouverture."],
    [[{ day_of_week: 2, afternoon_open: '8h', afternoon_close: '17:00' }], "L'heure doit être au format HH:mm."],
  ])('refuses %j with 400 and keeps the week', async (payload, message) => {
    const before = (await w.h.request(w.adminPlus, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).json();
    const res = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/agences/${w.lyon}/horaires`, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).json()).toEqual(before);
  });

  it('answers 401, 403 and 404 out of scope', async () => {
    expect((await w.h.request(null, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).statusCode).toBe(401);
    expect((await w.h.request(null, { method: 'PUT', url: `/api/agences/${w.lyon}/horaires`, payload: [] })).statusCode).toBe(401);
    expect((await w.h.request(w.tech, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).statusCode).toBe(403);
    const write = await w.h.request(w.viewer, { method: 'PUT', url: `/api/agences/${w.lyon}/horaires`, payload: [] });
    expect(write.statusCode).toBe(403);
    expect(write.json().error).toBe(FORBIDDEN);
    expect((await w.h.request(w.adminOther, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).statusCode).toBe(404);
    expect((await w.h.request(w.adminOther, { method: 'PUT', url: `/api/agences/${w.lyon}/horaires`, payload: [] })).statusCode).toBe(404);
    expect((await w.h.request(w.telesurv, { method: 'GET', url: `/api/agences/${w.lyon}/horaires` })).statusCode).toBe(404);
    expect((await w.h.request(w.telesurv, { method: 'GET', url: `/api/agences/${w.annecy}/horaires` })).statusCode).toBe(200);
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: `/api/agences/${UNKNOWN}/horaires` })).statusCode).toBe(404);
  });
});
