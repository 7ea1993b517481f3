import { describe, expect, it } from 'vitest';
import type { TestUser } from '../src/test-support/api-harness.js';
import { useAgencyWorld } from './support/agency-world.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const PASSWORD = 'Veille-2026#ok';
const OTHER_PASSWORD = 'Autre-Veille-99$';
let counter = 0;
const account = (overrides: Record<string, unknown> = {}) => ({
  nom: 'Centre Alpha',
  email: `veille.${++counter}@exemple.fr`,
  telephone: '04 00 11 22 33',
  motdepasse: PASSWORD,
  ...overrides,
});

const w = useAgencyWorld('api_mgmt_telesurv', { lyon: 'Agence Lyon', annecy: 'Agence Annecy', grenoble: 'Agence Grenoble' }, ({ lyon, annecy }) => ({
  adminPlus: { role: 'admin_plus', agenceId: lyon },
  admin: { role: 'admin', agenceId: lyon },
  // An agency admin to whom admin_plus granted telesurveillance.edit.
  agencyManager: { role: 'admin', agenceId: annecy, permissions: ['telesurveillance.edit'] },
  tech: { role: 'technicien', agenceId: lyon },
}));

const login = (email: string, motdepasse: string) => w.h.request(null, { method: 'POST', url: '/api/login', payload: { email, motdepasse } });
const accounts = async () => (await w.h.request(w.adminPlus, { method: 'GET', url: '/api/telesurv' })).json() as Record<string, unknown>[];

async function createAccount(overrides: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
  const payload = account(overrides);
  const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/telesurv', payload });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id, email: String(payload.email).trim().toLowerCase() };
}

async function signIn(email: string, password = PASSWORD): Promise<TestUser> {
  const res = await login(email, password);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  return { id: body.user.id, email, password, token: body.token, role: 'telesurveillance', agenceId: null };
}

describe('POST /api/telesurv', () => {
  it('creates an account that signs in as télésurveillance, without echoing the password', async () => {
    const payload = account({ email: ' Veille.Nord@Exemple.FR ' });
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/telesurv', payload });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, id: expect.any(String) });
    expect(res.body).not.toContain(PASSWORD);
    const session = await login('veille.nord@exemple.fr', PASSWORD);
    expect(session.statusCode).toBe(200);
    expect(session.json().user).toMatchObject({ role: 'telesurveillance', nom: 'Centre Alpha', permissions: [] });
    expect(await accounts()).toContainEqual({ id: res.json().id, nom: 'Centre Alpha', email: 'veille.nord@exemple.fr', telephone: '04 00 11 22 33', agences_count: 0, version: 0, partage_hors_perimetre: false });
  });

  it.each([['nom'], ['email'], ['motdepasse']])('refuses a missing %s with the spec message and creates nothing', async (field) => {
    const before = (await accounts()).length;
    const res = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/telesurv', payload: account({ [field]: undefined }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'Nom, email et mot de passe sont requis' });
    expect((await accounts()).length).toBe(before);
  });

  it('refuses a weak password and an e-mail already used', async () => {
    const weak = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/telesurv', payload: account({ motdepasse: 'abc' }) });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe('Le mot de passe ne respecte pas tous les critères.');
    const taken = await w.h.request(w.adminPlus, { method: 'POST', url: '/api/telesurv', payload: account({ email: w.tech.email.toUpperCase() }) });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({ success: false, error: 'Cette adresse e-mail est déjà utilisée.' });
  });

  it('answers 401 and 403 without telesurveillance.edit', async () => {
    expect((await w.h.request(null, { method: 'POST', url: '/api/telesurv', payload: account() })).statusCode).toBe(401);
    for (const user of [w.admin, w.tech]) {
      const res = await w.h.request(user, { method: 'POST', url: '/api/telesurv', payload: account() });
      expect(res.statusCode, user.role).toBe(403);
      expect(res.json().error).toBe('Accès refusé.');
    }
  });
});

describe('GET /api/telesurv', () => {
  it('lists accounts with agences_count, never a password; staff users are not listed', async () => {
    const { id } = await createAccount();
    await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}/agences`, payload: { agences: [w.lyon, w.annecy] } });
    const res = await w.h.request(w.adminPlus, { method: 'GET', url: '/api/telesurv' });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    expect(list.find((a) => a['id'] === id)).toMatchObject({ agences_count: 2 });
    expect(list.map((a) => a['id'])).not.toContain(w.tech.id);
    for (const item of list) expect(Object.keys(item).sort()).toEqual(['agences_count', 'email', 'id', 'nom', 'partage_hors_perimetre', 'telephone', 'version']);
    // A holder limited to its agency counts only what it can see.
    const limited = (await w.h.request(w.agencyManager, { method: 'GET', url: '/api/telesurv' })).json() as Record<string, unknown>[];
    expect(limited.find((a) => a['id'] === id)).toMatchObject({ agences_count: 1 });
  });

  it('answers 401 and 403', async () => {
    expect((await w.h.request(null, { method: 'GET', url: '/api/telesurv' })).statusCode).toBe(401);
    expect((await w.h.request(w.admin, { method: 'GET', url: '/api/telesurv' })).statusCode).toBe(403);
  });
});

describe('PUT /api/telesurv/{id}', () => {
  it('saves the account; a password resets it, none keeps it', async () => {
    const { id, email } = await createAccount();
    const keep = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'Centre Bêta', email, telephone: '', motdepasse: '' } });
    expect(keep.statusCode).toBe(200);
    expect(keep.json()).toEqual({ success: true });
    expect((await accounts()).find((a) => a['id'] === id)).toMatchObject({ nom: 'Centre Bêta', telephone: null });
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
    const reset = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'Centre Bêta', email, motdepasse: OTHER_PASSWORD } });
    expect(reset.statusCode).toBe(200);
    expect((await login(email, PASSWORD)).statusCode).toBe(401);
    expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a missing name or e-mail, or one already used, with 400 and changes nothing', async () => {
    const { id, email } = await createAccount();
    const res = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: '', email } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'Nom et email sont requis' });
    const taken = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'X', email: w.admin.email } });
    expect(taken.statusCode).toBe(400);
    expect((await accounts()).find((a) => a['id'] === id)).toMatchObject({ nom: 'Centre Alpha', email });
  });

  it('answers 401, 403, 404 for an unknown id or a staff user', async () => {
    const { id, email } = await createAccount();
    expect((await w.h.request(null, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'X', email } })).statusCode).toBe(401);
    expect((await w.h.request(w.admin, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'X', email } })).statusCode).toBe(403);
    const unknown = await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${UNKNOWN}`, payload: { nom: 'X', email: 'x@exemple.fr' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Compte télésurveillance introuvable.');
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${w.tech.id}`, payload: { nom: 'X', email: w.tech.email } })).statusCode).toBe(404);
  });
});

describe('DELETE /api/telesurv/{id}', () => {
  it('deletes the account and its sign-in', async () => {
    const { id, email } = await createAccount();
    const res = await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/telesurv/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await accounts()).map((a) => a['id'])).not.toContain(id);
    expect((await login(email, PASSWORD)).statusCode).toBe(401);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/telesurv/${id}` })).statusCode).toBe(404);
  });

  it('answers 401, 403, and 404 for a staff user', async () => {
    const { id } = await createAccount();
    expect((await w.h.request(null, { method: 'DELETE', url: `/api/telesurv/${id}` })).statusCode).toBe(401);
    expect((await w.h.request(w.admin, { method: 'DELETE', url: `/api/telesurv/${id}` })).statusCode).toBe(403);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/telesurv/${w.tech.id}` })).statusCode).toBe(404);
    expect((await accounts()).map((a) => a['id'])).toContain(id);
  });
});

describe('GET and PUT /api/telesurv/{id}/agences', () => {
  it('lists every agency with its assigned flag and replaces the whole set', async () => {
    const { id } = await createAccount();
    const url = `/api/telesurv/${id}/agences`;
    const first = await w.h.request(w.adminPlus, { method: 'PUT', url, payload: { agences: [w.lyon, w.annecy] } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true });
    const second = await w.h.request(w.adminPlus, { method: 'PUT', url, payload: { agences: [w.grenoble] } });
    expect(second.statusCode).toBe(200);
    const res = await w.h.request(w.adminPlus, { method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(
      expect.arrayContaining([
        { id: w.lyon, nom: 'Agence Lyon', assigned: false },
        { id: w.annecy, nom: 'Agence Annecy', assigned: false },
        { id: w.grenoble, nom: 'Agence Grenoble', assigned: true },
      ]),
    );
    const none = await w.h.request(w.adminPlus, { method: 'PUT', url, payload: { agences: [] } });
    expect(none.statusCode).toBe(200);
    expect(((await w.h.request(w.adminPlus, { method: 'GET', url })).json() as { assigned: boolean }[]).some((a) => a.assigned)).toBe(false);
  });

  it('refuses an unknown agency or a bad body with 400 and changes nothing', async () => {
    const { id } = await createAccount();
    const url = `/api/telesurv/${id}/agences`;
    await w.h.request(w.adminPlus, { method: 'PUT', url, payload: { agences: [w.lyon] } });
    for (const payload of [{ agences: [w.lyon, UNKNOWN] }, { agences: ['abc'] }, { agences: 'lyon' }]) {
      const res = await w.h.request(w.adminPlus, { method: 'PUT', url, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: 'Agence invalide.' });
    }
    const assigned = ((await w.h.request(w.adminPlus, { method: 'GET', url })).json() as { id: string; assigned: boolean }[]).filter((a) => a.assigned).map((a) => a.id);
    expect(assigned).toEqual([w.lyon]);
  });

  it('lets a holder outside admin_plus change only its own agency, keeping the others', async () => {
    const { id } = await createAccount();
    const url = `/api/telesurv/${id}/agences`;
    await w.h.request(w.adminPlus, { method: 'PUT', url, payload: { agences: [w.lyon] } });
    const seen = await w.h.request(w.agencyManager, { method: 'GET', url });
    expect(seen.json()).toEqual([{ id: w.annecy, nom: 'Agence Annecy', assigned: false }]);
    expect((await w.h.request(w.agencyManager, { method: 'PUT', url, payload: { agences: [w.annecy] } })).json()).toEqual({ success: true });
    const all = (await w.h.request(w.adminPlus, { method: 'GET', url })).json() as { id: string; assigned: boolean }[];
    expect(all.filter((a) => a.assigned).map((a) => a.id).sort()).toEqual([w.lyon, w.annecy].sort());
    const elsewhere = await w.h.request(w.agencyManager, { method: 'PUT', url, payload: { agences: [w.grenoble] } });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toMatchObject({ success: false, error: 'Vous ne pouvez agir que sur votre propre agence.' });
  });

  it('answers 401, 403 and 404', async () => {
    const { id } = await createAccount();
    const url = `/api/telesurv/${id}/agences`;
    expect((await w.h.request(null, { method: 'GET', url })).statusCode).toBe(401);
    expect((await w.h.request(null, { method: 'PUT', url, payload: { agences: [] } })).statusCode).toBe(401);
    expect((await w.h.request(w.admin, { method: 'GET', url })).statusCode).toBe(403);
    const denied = await w.h.request(w.admin, { method: 'PUT', url, payload: { agences: [w.lyon] } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ success: false, error: 'Accès refusé.' });
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: `/api/telesurv/${UNKNOWN}/agences` })).statusCode).toBe(404);
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${w.tech.id}/agences`, payload: { agences: [w.lyon] } })).statusCode).toBe(404);
  });
});

describe('GET /api/telesurv/me/agences', () => {
  it('gives the account its assigned live agencies as {id, nom}', async () => {
    const { id, email } = await createAccount();
    const me = await signIn(email);
    expect((await w.h.request(me, { method: 'GET', url: '/api/telesurv/me/agences' })).json()).toEqual([]);
    await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}/agences`, payload: { agences: [w.annecy, w.grenoble] } });
    const res = await w.h.request(me, { method: 'GET', url: '/api/telesurv/me/agences' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: w.annecy, nom: 'Agence Annecy' },
      { id: w.grenoble, nom: 'Agence Grenoble' },
    ]);
  });

  it('answers 401 without a token and 403 to staff users', async () => {
    expect((await w.h.request(null, { method: 'GET', url: '/api/telesurv/me/agences' })).statusCode).toBe(401);
    expect((await w.h.request(w.adminPlus, { method: 'GET', url: '/api/telesurv/me/agences' })).statusCode).toBe(403);
  });

  it('keeps a télésurveillance account out of the management routes', async () => {
    const { email } = await createAccount();
    const me = await signIn(email);
    expect((await w.h.request(me, { method: 'GET', url: '/api/telesurv' })).statusCode).toBe(403);
    expect((await w.h.request(me, { method: 'PUT', url: `/api/telesurv/${me.id}/agences`, payload: { agences: [w.lyon] } })).statusCode).toBe(403);
  });
});

describe('secrets', () => {
  it('never stores a password or a hash in an event', async () => {
    const { rows } = await w.h.pool.query<{ text: string }>(`SELECT type || ' ' || data::text || ' ' || coalesce(metadata::text, '') AS text FROM es.events`);
    const events = rows.map((row) => row.text).join('\n');
    expect(events).toContain('TelesurvAgencesSet');
    for (const secret of [PASSWORD, OTHER_PASSWORD, 'motdepasse', 'scrypt$']) expect(events).not.toContain(secret);
  });
});

describe('accounts shared with other agencies (issue 17: the télésurveillance pivot)', () => {
  const SHARED = "Ce compte télésurveillance est aussi affecté à une agence qui n'est pas la vôtre : seul un administrateur plateforme peut changer son mot de passe ou le supprimer.";
  const PIVOT_PASSWORD = 'Pivot-2026!x';

  async function sharedAccount(agences: string[]): Promise<{ id: string; email: string }> {
    const created = await createAccount();
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${created.id}/agences`, payload: { agences } })).statusCode).toBe(200);
    return created;
  }

  it('an agency admin with telesurveillance.edit cannot reset the password of an account also assigned elsewhere, so cannot sign in as it', async () => {
    const { id, email } = await sharedAccount([w.annecy, w.lyon]);
    const reset = await w.h.request(w.agencyManager, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'Centre Alpha', email, motdepasse: PIVOT_PASSWORD } });
    expect(reset.statusCode).toBe(403);
    expect(reset.json()).toMatchObject({ success: false, error: SHARED });
    expect((await login(email, PIVOT_PASSWORD)).statusCode).toBe(401);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
    // Editing its name, without touching the password, stays possible.
    const rename = await w.h.request(w.agencyManager, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'Centre Alpha (Annecy)', email, motdepasse: '' } });
    expect(rename.statusCode).toBe(200);
  });

  it('nor delete it; admin_plus may do both', async () => {
    const { id, email } = await sharedAccount([w.annecy, w.grenoble]);
    const removal = await w.h.request(w.agencyManager, { method: 'DELETE', url: `/api/telesurv/${id}` });
    expect(removal.statusCode).toBe(403);
    expect(removal.json()).toMatchObject({ success: false, error: SHARED });
    expect((await accounts()).map((a) => a['id'])).toContain(id);
    expect((await w.h.request(w.adminPlus, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'Centre Alpha', email, motdepasse: OTHER_PASSWORD } })).statusCode).toBe(200);
    expect((await login(email, OTHER_PASSWORD)).statusCode).toBe(200);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/telesurv/${id}` })).statusCode).toBe(200);
  });

  it('the list flags, per caller, the accounts whose password and deletion are refused to it (partage_hors_perimetre)', async () => {
    const shared = await sharedAccount([w.annecy, w.lyon]);
    const own = await sharedAccount([w.annecy]);
    const unassigned = await createAccount();
    // An agency deleted since its assignment leaves nobody else to protect.
    const closed = await w.h.createAgence('Agence Chambéry');
    const leftOver = await sharedAccount([w.annecy, closed]);
    expect((await w.h.request(w.adminPlus, { method: 'DELETE', url: `/api/agences/${closed}` })).statusCode).toBe(200);
    const flags = async (user: TestUser) =>
      Object.fromEntries(((await w.h.request(user, { method: 'GET', url: '/api/telesurv' })).json() as Record<string, unknown>[]).map((a) => [a['id'], a['partage_hors_perimetre']]));
    expect(await flags(w.agencyManager)).toMatchObject({ [shared.id]: true, [own.id]: false, [unassigned.id]: false, [leftOver.id]: false });
    expect(await flags(w.adminPlus)).toMatchObject({ [shared.id]: false, [own.id]: false, [unassigned.id]: false, [leftOver.id]: false });
    // The flag and the refusals are one rule: what is flagged is refused, what is not is allowed.
    const reset = (id: string, email: string) =>
      w.h.request(w.agencyManager, { method: 'PUT', url: `/api/telesurv/${id}`, payload: { nom: 'Centre Alpha', email, motdepasse: OTHER_PASSWORD } });
    expect((await reset(shared.id, shared.email)).statusCode).toBe(403);
    expect((await reset(leftOver.id, leftOver.email)).statusCode).toBe(200);
    expect((await w.h.request(w.agencyManager, { method: 'DELETE', url: `/api/telesurv/${leftOver.id}` })).statusCode).toBe(200);
  });

  it('an account assigned only within the admin’s agencies (or to none) stays its to reset and delete', async () => {
    const own = await sharedAccount([w.annecy]);
    expect((await w.h.request(w.agencyManager, { method: 'PUT', url: `/api/telesurv/${own.id}`, payload: { nom: 'Centre Alpha', email: own.email, motdepasse: OTHER_PASSWORD } })).statusCode).toBe(200);
    expect((await login(own.email, OTHER_PASSWORD)).statusCode).toBe(200);
    expect((await w.h.request(w.agencyManager, { method: 'DELETE', url: `/api/telesurv/${own.id}` })).statusCode).toBe(200);
    const unassigned = await createAccount();
    expect((await w.h.request(w.agencyManager, { method: 'DELETE', url: `/api/telesurv/${unassigned.id}` })).statusCode).toBe(200);
  });
});
