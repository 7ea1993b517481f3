import { describe, expect, it } from 'vitest';
import { PERMISSION_CATALOGUE, defaultPermissionsForRole } from '@fsm/contracts';
import { TEST_PASSWORD, type TestUser } from '../src/test-support/api-harness.js';
import { useAgencyWorld } from './support/agency-world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NEW_PASSWORD = 'Nouveau-Passe-42!';
const RESET_PASSWORD = 'Reinit-Passe-77?';
let counter = 0;
const body = (overrides: Record<string, unknown> = {}) => ({
  nom: 'Bernard',
  prenom: 'Lucie',
  email: `lucie.${++counter}@exemple.fr`,
  telephone: '06 11 22 33 44',
  role: 'technicien',
  motdepasse: NEW_PASSWORD,
  ...overrides,
});

const w = useAgencyWorld('api_mgmt_users', { lyon: 'Agence Lyon', annecy: 'Agence Annecy' }, ({ lyon, annecy }) => ({
  adminPlus: { role: 'admin_plus', agenceId: lyon },
  admin: { role: 'admin', agenceId: lyon },
  adminPeer: { role: 'admin', agenceId: lyon },
  adminAnnecy: { role: 'admin', agenceId: annecy },
  tech: { role: 'technicien', agenceId: lyon },
  techAnnecy: { role: 'technicien', agenceId: annecy },
  telesurv: { role: 'telesurveillance', telesurvAgences: [annecy] },
}));

const login = (email: string, motdepasse: string) => w.h.request(null, { method: 'POST', url: '/api/login', payload: { email, motdepasse } });
const listIds = async (user: TestUser) => ((await w.h.request(user, { method: 'GET', url: '/api/utilisateurs' })).json() as { id: string }[]).map((u) => u.id);

async function createTech(overrides: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  const payload = body(overrides);
  const res = await w.h.request(w.admin, { method: 'POST', url: '/api/utilisateurs', payload });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id, email: payload.email as string };
}

/** Every event and its metadata, as stored. */
async function storedEvents(): Promise<string> {
  const { rows } = await w.h.pool.query<{ text: string }>(`SELECT type || ' ' || data::text || ' ' || coalesce(metadata::text, '') AS text FROM es.events`);
  return rows.map((row) => row.text).join('\n');
}

describe('GET /api/utilisateurs', () => {
  it('lists the staff of every agency for admin_plus, with details and no télésurveillance account', async () => {
    const res = await w.h.request(w.adminPlus, { method: 'GET', url: '/api/utilisateurs' });
    expect(res.statusCode).toBe(200);
    const users = res.json() as Record<string, unknown>[];
    expect(users.map((u) => u['id'])).toEqual(expect.arrayContaining([w.admin.id, w.adminAnnecy.id, w.techAnnecy.id]));
    expect(users.map((u) => u['id'])).not.toContain(w.telesurv.id);
    expect(users.find((u) => u['id'] === w.tech.id)).toEqual({
      id: w.tech.id,
      nom: 'Test',
      prenom: 'technicien',
      email: w.tech.email,
      telephone: '0600000000',
      role: 'technicien',
      agence_id: w.lyon,
      agence_nom: 'Agence Lyon',
      version: expect.any(Number),
    });
  });

  it('lists only its own agency for users.view outside admin_plus', async () => {
    const ids = await listIds(w.admin);
    expect(ids).toEqual(expect.arrayContaining([w.admin.id, w.adminPeer.id, w.tech.id]));
    expect(ids).not.toContain(w.techAnnecy.id);
  });

  it('gives other staff their agency’s names for pickers, never e-mail or phone', async () => {
    const res = await w.h.request(w.tech, { method: 'GET', url: '/api/utilisateurs' });
    expect(res.statusCode).toBe(200);
    const users = res.json() as Record<string, unknown>[];
    expect(users.map((u) => u['id'])).not.toContain(w.techAnnecy.id);
    for (const user of users) expect(Object.keys(user).sort()).toEqual(['agence_id', 'agence_nom', 'id', 'nom', 'prenom', 'role']);
    const fromTelesurv = (await w.h.request(w.telesurv, { method: 'GET', url: '/api/utilisateurs' })).json() as Record<string, unknown>[];
    expect(fromTelesurv.map((u) => u['id'])).toEqual(expect.arrayContaining([w.techAnnecy.id, w.adminAnnecy.id]));
    expect(fromTelesurv.map((u) => u['id'])).not.toContain(w.tech.id);
    expect(fromTelesurv.every((u) => !('email' in u))).toBe(true);
  });

  it('answers 401 without a token', async () => {
    expect((await w.h.request(null, { method: 'GET', url: '/api/utilisateurs' })).statusCode).toBe(401);
  });
});

describe('GET /api/utilisateurs/agences and /permissions-catalog', () => {
  it('offers every agency to admin_plus and its own to the others', async () => {
    const all = await w.h.request(w.adminPlus, { method: 'GET', url: '/api/utilisateurs/agences' });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual(expect.arrayContaining([{ id: w.lyon, nom: 'Agence Lyon' }, { id: w.annecy, nom: 'Agence Annecy' }]));
    expect((await w.h.request(w.admin, { method: 'GET', url: '/api/utilisateurs/agences' })).json()).toEqual([{ id: w.lyon, nom: 'Agence Lyon' }]);
  });

  it('serves the catalogue with French labels', async () => {
    const res = await w.h.request(w.admin, { method: 'GET', url: '/api/utilisateurs/permissions-catalog' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(PERMISSION_CATALOGUE.map(({ slug, label }) => ({ slug, label })));
  });

  it('answers 401 and 403', async () => {
    for (const url of ['/api/utilisateurs/agences', '/api/utilisateurs/permissions-catalog']) {
      expect((await w.h.request(null, { method: 'GET', url })).statusCode).toBe(401);
      expect((await w.h.request(w.tech, { method: 'GET', url })).statusCode).toBe(403);
      expect((await w.h.request(w.telesurv, { method: 'GET', url })).statusCode).toBe(403);
    }
  });
});

describe('POST /api/utilisateurs', () => {
  it('creates a user with its role’s default permissions; the password works and is never echoed', async () => {
    const payload = body({ email: '  Claire.Petit@Exemple.FR ', role: 'admin', agence_id: w.annecy });
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/utilisateurs', payload });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toEqual({
      id: expect.any(String),
      nom: 'Bernard',
      prenom: 'Lucie',
      email: 'claire.petit@exemple.fr',
      telephone: '06 11 22 33 44',
      role: 'admin',
      agence_id: w.annecy,
      agence_nom: 'Agence Annecy',
      version: 1,
    });
    expect(res.body).not.toContain(NEW_PASSWORD);
    const session = await login('claire.petit@exemple.fr', NEW_PASSWORD);
    expect(session.statusCode).toBe(200);
    expect(session.json().user.permissions).toEqual(defaultPermissionsForRole('admin'));
  });

  it('puts a non admin_plus user’s creation in its own agency', async () => {
    const { id } = await createTech();
    const row = ((await w.h.request(w.admin, { method: 'GET', url: '/api/utilisateurs' })).json() as { id: string; agence_id: string }[]).find((u) => u.id === id);
    expect(row?.agence_id).toBe(w.lyon);
  });

  it.each([
    ['nom', { nom: ' ' }, 'Le nom est obligatoire.'],
    ['prenom', { prenom: '' }, 'Le prénom est obligatoire.'],
    ['email', { email: '' }, "L'email est obligatoire."],
    ['email format', { email: 'pas-un-email' }, 'Adresse e-mail invalide.'],
    ['telephone', { telephone: undefined }, 'Le téléphone est obligatoire.'],
    ['password', { motdepasse: undefined }, 'Le mot de passe est obligatoire.'],
    ['weak password', { motdepasse: 'court' }, 'Le mot de passe ne respecte pas tous les critères.'],
    ['role', { role: 'telesurveillance' }, 'Veuillez sélectionner un rôle.'],
  ])('refuses a bad %s with 400 and creates nothing', async (_label, overrides, message) => {
    const before = (await listIds(w.admin)).length;
    const res = await w.h.request(w.admin, { method: 'POST', url: '/api/utilisateurs', payload: body(overrides) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(message);
    expect((await listIds(w.admin)).length).toBe(before);
  });

  it('requires admin_plus to pick an existing agency', async () => {
    const none = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/utilisateurs', payload: body() });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('Veuillez sélectionner une agence.');
    const unknown = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/utilisateurs', payload: body({ agence_id: UNKNOWN }) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('Agence invalide.');
  });

  it('refuses an e-mail already used, whatever its case, and lets only one of two racing creations win', async () => {
    const taken = await w.h.request(w.admin, { method: 'POST', url: '/api/utilisateurs', payload: body({ email: w.tech.email.toUpperCase() }) });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error).toBe('Cette adresse e-mail est déjà utilisée.');

    const email = `course.${Date.now()}@exemple.fr`;
    const racing = await Promise.all([1, 2, 3].map(() => w.h.request(w.admin, { method: 'POST', url: '/api/utilisateurs', payload: body({ email }) })));
    expect(racing.map((res) => res.statusCode).sort()).toEqual([201, 400, 400]);
    const { rows } = await w.h.pool.query(`SELECT 1 FROM rm.users WHERE lower(email) = $1 AND NOT deleted`, [email]);
    expect(rows).toHaveLength(1);
  });

  it('refuses privilege escalation: admin roles and other agencies are admin_plus’s', async () => {
    for (const role of ['admin', 'admin_plus']) {
      const res = await w.h.request(w.admin, { method: 'POST', url: '/api/utilisateurs', payload: body({ role }) });
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error).toBe('Vous ne pouvez pas attribuer ce rôle.');
    }
    const elsewhere = await w.h.request(w.admin, { method: 'POST', url: '/api/utilisateurs', payload: body({ agence_id: w.annecy }) });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json().error).toBe('Vous ne pouvez agir que sur votre propre agence.');
  });

  it('answers 401 and 403 without users.edit', async () => {
    expect((await w.h.request(null, { method: 'POST', url: '/api/utilisateurs', payload: body() })).statusCode).toBe(401);
    for (const user of [w.tech, w.telesurv]) {
      const res = await w.h.request(user, { method: 'POST', url: '/api/utilisateurs', payload: body() });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Accès refusé.');
    }
  });
});

describe('PUT /api/utilisateurs/{id}', () => {
  it('saves the user; a password resets it, none keeps it', async () => {
    const { id, email } = await createTech();
    const res = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: { ...body({ email, nom: 'Durand', role: 'technicien_plus' }), motdepasse: '' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, nom: 'Durand', email, role: 'technicien_plus', agence_id: w.lyon });
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(200);
    // A new role brings that role's defaults.
    expect((await login(email, NEW_PASSWORD)).json().user.permissions).toEqual(defaultPermissionsForRole('technicien_plus'));

    const reset = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email, nom: 'Durand', role: 'technicien_plus', motdepasse: RESET_PASSWORD }) });
    expect(reset.statusCode).toBe(200);
    expect(reset.body).not.toContain(RESET_PASSWORD);
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, RESET_PASSWORD)).statusCode).toBe(200);
  });

  it('lets users edit themselves without changing their role', async () => {
    const self = await w.h.request(w.adminPeer, { method: 'PUT', url: `/api/utilisateurs/${w.adminPeer.id}`, payload: body({ email: w.adminPeer.email, role: 'admin', motdepasse: '' }) });
    expect(self.statusCode).toBe(200);
    expect(self.json()).toMatchObject({ nom: 'Bernard', role: 'admin' });
  });

  it('never changes one’s own password without the old one (issue 17): 400 in French, the session stays, the password too', async () => {
    const message = 'Pour changer votre propre mot de passe, utilisez « Changer le mot de passe » (votre nom dans la barre de navigation) : l’ancien mot de passe y est demandé.';
    for (const user of [w.adminPeer, w.adminPlus]) {
      const res = await w.h.request(user, { method: 'PUT', url: `/api/utilisateurs/${user.id}`, payload: body({ email: user.email, role: user.role, agence_id: user.agenceId, motdepasse: RESET_PASSWORD }) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
      expect((await login(user.email, RESET_PASSWORD)).statusCode).toBe(401);
      expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(200);
      // Not a 401/403: the screen keeps the session (tickets.md §6).
      expect((await w.h.request(user, { method: 'GET', url: '/api/utilisateurs' })).statusCode).toBe(200);
    }
  });

  it('frees the old e-mail when it changes, and refuses one used by somebody else', async () => {
    const { id, email } = await createTech();
    const taken = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email: w.tech.email }) });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error).toBe('Cette adresse e-mail est déjà utilisée.');
    const moved = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email: `nouvelle.${email}` }) });
    expect(moved.statusCode).toBe(200);
    await createTech({ email });
  });

  it('refuses an invalid body with 400 and changes nothing', async () => {
    const { id, email } = await createTech();
    const res = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email, prenom: '' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Le prénom est obligatoire.');
    const weak = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email, motdepasse: 'abc' }) });
    expect(weak.statusCode).toBe(400);
    expect((await login(email, NEW_PASSWORD)).json().user).toMatchObject({ prenom: 'Lucie' });
  });

  it('refuses privilege escalation: promoting, editing an admin, moving to another agency', async () => {
    const { id, email } = await createTech();
    const promote = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email, role: 'admin' }) });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().error).toBe('Vous ne pouvez pas attribuer ce rôle.');
    const selfPromote = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${w.admin.id}`, payload: body({ email: w.admin.email, role: 'admin_plus' }) });
    expect(selfPromote.statusCode).toBe(403);
    const peer = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${w.adminPeer.id}`, payload: body({ email: w.adminPeer.email, role: 'technicien' }) });
    expect(peer.statusCode).toBe(403);
    expect(peer.json().error).toBe('Vous ne pouvez pas gérer un utilisateur de ce rôle.');
    const move = await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${id}`, payload: body({ email, agence_id: w.annecy }) });
    expect(move.statusCode).toBe(403);
    expect((await login(email, NEW_PASSWORD)).json().user).toMatchObject({ role: 'technicien', agence_id: w.lyon });
  });

  it('answers 401, 403, and 404 out of scope or unknown', async () => {
    const url = `/api/utilisateurs/${w.tech.id}`;
    expect((await w.h.request(null, { method: 'PUT', url, payload: body() })).statusCode).toBe(401);
    expect((await w.h.request(w.tech, { method: 'PUT', url, payload: body() })).statusCode).toBe(403);
    const other = await w.h.request(w.adminAnnecy, { method: 'PUT', url, payload: body() });
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('Utilisateur introuvable.');
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/utilisateurs/${UNKNOWN}`, payload: body({ agence_id: w.lyon }) })).statusCode).toBe(404);
    expect((await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${w.telesurv.id}`, payload: body() })).statusCode).toBe(404);
    const telesurvByAdminPlus = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/utilisateurs/${w.telesurv.id}`, payload: body({ agence_id: w.lyon }) });
    expect(telesurvByAdminPlus.statusCode).toBe(409);
    expect(telesurvByAdminPlus.json().error).toMatch(/compte télésurveillance/);
  });
});

describe('DELETE /api/utilisateurs/{id}', () => {
  it('deletes the user, its sign-in and frees its e-mail', async () => {
    const { id, email } = await createTech();
    const res = await w.h.request(w.admin, { method: 'DELETE', url: `/api/utilisateurs/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await listIds(w.admin)).not.toContain(id);
    expect((await login(email, NEW_PASSWORD)).statusCode).toBe(401);
    const { rows } = await w.h.pool.query('SELECT 1 FROM auth.credentials WHERE user_id = $1', [id]);
    expect(rows).toHaveLength(0);
    await createTech({ email });
    expect((await w.h.request(w.admin, { method: 'DELETE', url: `/api/utilisateurs/${id}` })).statusCode).toBe(404);
  });

  it('refuses deleting oneself with 409', async () => {
    const res = await w.h.request(w.admin, { method: 'DELETE', url: `/api/utilisateurs/${w.admin.id}` });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Vous ne pouvez pas supprimer votre propre compte.');
    expect((await login(w.admin.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('answers 401, 403 (no users.edit, or an admin target), 404 out of scope', async () => {
    const { id } = await createTech();
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/utilisateurs/${id}` })).statusCode).toBe(401);
    expect((await w.h.request(w.tech, { method: 'DELETE', url: `/api/utilisateurs/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(w.admin, { method: 'DELETE', url: `/api/utilisateurs/${w.adminPeer.id}` })).statusCode).toBe(403);
    expect((await w.h.request(w.adminAnnecy, { method: 'DELETE', url: `/api/utilisateurs/${id}` })).statusCode).toBe(404);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/utilisateurs/${UNKNOWN}` })).statusCode).toBe(404);
    expect(await listIds(w.admin)).toContain(id);
  });
});

describe('GET and PUT /api/utilisateurs/{id}/permissions', () => {
  it('reads and replaces the set; the user’s session sees it at once', async () => {
    const { id, email } = await createTech();
    const url = `/api/utilisateurs/${id}/permissions`;
    const read = await w.h.request(w.admin, { method: 'GET', url });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ permissions: ['tickets.devis'], version: 1 });
    const save = await w.h.request(w.admin, { method: 'PUT', url, payload: { permissions: ['tickets.devis', 'clients.view', 'clients.view'] } });
    expect(save.statusCode).toBe(200);
    expect(save.json()).toEqual({ success: true });
    expect((await w.h.request(w.admin, { method: 'GET', url })).json()).toEqual({ permissions: ['clients.view', 'tickets.devis'], version: 2 });
    expect((await login(email, NEW_PASSWORD)).json().user.permissions).toEqual(['clients.view', 'tickets.devis']);
  });

  it('refuses granting or withdrawing what the caller does not hold, with success false', async () => {
    const { id } = await createTech();
    const url = `/api/utilisateurs/${id}/permissions`;
    const grant = await w.h.request(w.admin, { method: 'PUT', url, payload: { permissions: ['tickets.devis', 'metier.edit', 'tickets.stats-global'] } });
    expect(grant.statusCode).toBe(403);
    expect(grant.json()).toMatchObject({ success: false, error: 'Vous ne pouvez pas attribuer ou retirer ces permissions : tickets.stats-global, metier.edit.' });
    // admin_plus may; then the admin may not withdraw it, but may save around it.
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url, payload: { permissions: ['tickets.devis', 'metier.edit'] } })).statusCode).toBe(200);
    expect((await w.h.request(w.admin, { method: 'PUT', url, payload: { permissions: ['tickets.devis'] } })).statusCode).toBe(403);
    expect((await w.h.request(w.admin, { method: 'PUT', url, payload: { permissions: ['metier.edit', 'clients.view'] } })).statusCode).toBe(200);
    expect((await w.h.request(w.admin, { method: 'GET', url })).json()).toEqual({ permissions: ['clients.view', 'metier.edit'], version: expect.any(Number) });
    // An admin does not touch another admin's set, nor raise its own.
    expect((await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${w.adminPeer.id}/permissions`, payload: { permissions: [] } })).statusCode).toBe(403);
    expect((await w.h.request(w.admin, { method: 'PUT', url: `/api/utilisateurs/${w.admin.id}/permissions`, payload: { permissions: [...defaultPermissionsForRole('admin'), 'metier.edit'] } })).statusCode).toBe(403);
  });

  it('refuses an unknown slug with 400 and changes nothing', async () => {
    const { id } = await createTech();
    const url = `/api/utilisateurs/${id}/permissions`;
    const res = await w.h.request(w.admin, { method: 'PUT', url, payload: { permissions: ['tickets.delete'] } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'Permission inconnue : tickets.delete' });
    const notList = await w.h.request(w.admin, { method: 'PUT', url, payload: { permissions: 'clients.view' } });
    expect(notList.statusCode).toBe(400);
    expect((await w.h.request(w.admin, { method: 'GET', url })).json()).toEqual({ permissions: ['tickets.devis'], version: 1 });
  });

  it('answers 401, 403 without users.permissions, 404 out of scope, 409 for a télésurveillance account', async () => {
    const url = `/api/utilisateurs/${w.tech.id}/permissions`;
    expect((await w.h.request(null, { method: 'GET', url })).statusCode).toBe(401);
    expect((await w.h.request(null, { method: 'PUT', url, payload: { permissions: [] } })).statusCode).toBe(401);
    expect((await w.h.request(w.tech, { method: 'GET', url })).statusCode).toBe(403);
    const denied = await w.h.request(w.tech, { method: 'PUT', url, payload: { permissions: [] } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ success: false, error: 'Accès refusé.' });
    expect((await w.h.request(w.adminAnnecy, { method: 'GET', url })).statusCode).toBe(404);
    expect((await w.h.request(w.adminAnnecy, { method: 'PUT', url, payload: { permissions: [] } })).statusCode).toBe(404);
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: `/api/utilisateurs/${w.telesurv.id}/permissions` })).statusCode).toBe(404);
    const ts = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/utilisateurs/${w.telesurv.id}/permissions`, payload: { permissions: ['clients.view'] } });
    expect(ts.statusCode).toBe(409);
    expect(ts.json()).toMatchObject({ success: false, error: "Un compte télésurveillance n'a pas de permissions." });
  });
});

describe('secrets', () => {
  it('never stores a password or a hash in an event', async () => {
    const events = await storedEvents();
    expect(events.length).toBeGreaterThan(0);
    for (const secret of [NEW_PASSWORD, RESET_PASSWORD, TEST_PASSWORD, 'motdepasse', 'scrypt$', 'password']) expect(events).not.toContain(secret);
  });
});
