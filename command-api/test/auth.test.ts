import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandContext } from '../src/commands/command-context.js';
import { runUserCommand } from '../src/commands/user-commands.js';
import { createApiHarness, TEST_PASSWORD, type ApiHarness } from '../src/test-support/api-harness.js';

let h: ApiHarness;
beforeAll(async () => {
  h = await createApiHarness('api_auth');
});
afterAll(async () => h?.close());

describe('POST /api/login', () => {
  it('answers a token and the session user', async () => {
    const agenceId = await h.createAgence('Agence de Lyon');
    const tech = await h.createUser({ role: 'technicien', agenceId });
    const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: tech.email.toUpperCase(), motdepasse: TEST_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(body.user).toEqual({ id: tech.id, role: 'technicien', prenom: 'technicien', nom: 'Test', agence_id: agenceId, agence_nom: 'Agence de Lyon', permissions: ['tickets.devis'] });
    const health = await h.request({ ...tech, token: body.token }, { method: 'POST', url: '/api/utilisateurs/change-password', payload: {} });
    expect(health.statusCode).toBe(400); // authenticated with the new token: the body is what fails
  });

  it('refuses a wrong password or an unknown e-mail with the same message', async () => {
    const tech = await h.createUser({ role: 'technicien' });
    for (const payload of [
      { email: tech.email, motdepasse: 'wrong-Password1!' },
      { email: 'nobody@test.fr', motdepasse: TEST_PASSWORD },
    ]) {
      const res = await h.request(null, { method: 'POST', url: '/api/login', payload });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('Identifiants invalides');
    }
  });

  it('answers 400 in French for a missing field', async () => {
    const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: 'x@test.fr' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Merci de saisir votre email et votre mot de passe.');
  });

  it('slows down repeated failures for one e-mail, even with the right password', async () => {
    const tech = await h.createUser({ role: 'technicien' });
    const attempt = (motdepasse: string) => h.request(null, { method: 'POST', url: '/api/login', payload: { email: tech.email, motdepasse } });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-Password1!')).statusCode).toBe(401);
    const locked = await attempt(TEST_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toMatch(/^Trop de tentatives de connexion\. Réessayez dans 1 minute\.$/);
    // Another e-mail is not affected.
    const other = await h.createUser({ role: 'technicien' });
    expect((await h.request(null, { method: 'POST', url: '/api/login', payload: { email: other.email, motdepasse: TEST_PASSWORD } })).statusCode).toBe(200);
    // Once the lock has passed, the right password works and clears the count.
    h.setNow(new Date(Date.now() + 2 * 60_000));
    try {
      expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
    } finally {
      h.setNow(new Date());
    }
  });
});

describe('authentication of other routes', () => {
  it('answers 401 "Session expirée" without a token, with a bad one, or for a deleted user', async () => {
    const url = '/api/utilisateurs/change-password';
    const none = await h.request(null, { method: 'POST', url, payload: {} });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('Session expirée');
    const forged = await h.app.inject({ method: 'POST', url, payload: {}, headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(forged.statusCode).toBe(401);

    const user = await h.createUser({ role: 'technicien' });
    expect((await h.request(user, { method: 'POST', url, payload: {} })).statusCode).toBe(400);
    await runUserCommand({ context: commandContext(h.deps), actor: h.system }, user.id, { type: 'DeleteUser', data: { userId: user.id, deletedBy: 'someone-else', deletedAt: new Date().toISOString() } });
    const gone = await h.request(user, { method: 'POST', url, payload: {} });
    expect(gone.statusCode).toBe(401);
    expect(gone.json().error).toBe('Session expirée');
  });
});

describe('POST /api/utilisateurs/change-password', () => {
  const url = '/api/utilisateurs/change-password';

  it('gives each rule its message and changes nothing', async () => {
    const user = await h.createUser({ role: 'admin' });
    const cases: [Record<string, string>, string][] = [
      [{ oldPassword: '', newPassword: 'Abcdef-12' }, 'Tous les champs sont obligatoires.'],
      [{ oldPassword: TEST_PASSWORD, newPassword: 'short1!' }, 'Le mot de passe ne respecte pas tous les critères.'],
      [{ oldPassword: TEST_PASSWORD, newPassword: 'NoDigits!!' }, 'Le mot de passe ne respecte pas tous les critères.'],
      [{ oldPassword: TEST_PASSWORD, newPassword: 'NoSymbol123' }, 'Le mot de passe ne respecte pas tous les critères.'],
      [{ oldPassword: 'Wrong-old-1', newPassword: 'Abcdef-12' }, 'L’ancien mot de passe est incorrect.'],
    ];
    for (const [payload, message] of cases) {
      const res = await h.request(user, { method: 'POST', url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const login = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: user.email, motdepasse: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('changes the password', async () => {
    const user = await h.createUser({ role: 'technicien_plus' });
    const res = await h.request(user, { method: 'POST', url, payload: { oldPassword: TEST_PASSWORD, newPassword: 'Nouveau-2026' } });
    expect(res.statusCode).toBe(200);
    // The change revokes older tokens, this session's too: the answer carries its replacement.
    expect(res.json()).toEqual({ success: true, message: 'Mot de passe modifié avec succès.', token: expect.any(String) });
    const old = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: user.email, motdepasse: TEST_PASSWORD } });
    expect(old.statusCode).toBe(401);
    const fresh = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: user.email, motdepasse: 'Nouveau-2026' } });
    expect(fresh.statusCode).toBe(200);
  });
});
