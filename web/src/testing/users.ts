import { TOKEN_STORAGE_KEY, USER_STORAGE_KEY, type SessionUser } from '../lib/session';

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 'u-1',
    role: 'technicien',
    prenom: 'Camille',
    nom: 'Durand',
    agence_id: 'a-1',
    agence_nom: 'Agence Lyon',
    permissions: [],
    ...overrides,
  };
}

export function signIn(user: SessionUser = makeUser(), token = 'test-token'): SessionUser {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, token);
  window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  return user;
}
