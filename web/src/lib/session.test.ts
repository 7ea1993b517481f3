import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, getSession, saveSession, TOKEN_STORAGE_KEY, USER_STORAGE_KEY } from './session';
import { makeUser } from '../testing/users';

afterEach(() => window.localStorage.clear());

describe('session storage', () => {
  it('round-trips token and user through localStorage', () => {
    const user = makeUser({ role: 'admin', permissions: ['clients.view'] });
    saveSession({ token: 't', user });
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('t');
    expect(getSession()).toEqual({ token: 't', user });
    // Same snapshot object while storage is unchanged (useSyncExternalStore needs it).
    expect(getSession()).toBe(getSession());
  });

  it('treats a malformed stored user as signed out', () => {
    window.localStorage.setItem(TOKEN_STORAGE_KEY, 't');
    window.localStorage.setItem(USER_STORAGE_KEY, '{not json');
    expect(getSession()).toBeNull();
    window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify({ id: 1, role: 'pirate', prenom: 'a', nom: 'b' }));
    expect(getSession()).toBeNull();
  });

  it('clearSession removes both keys', () => {
    saveSession({ token: 't', user: makeUser() });
    clearSession();
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    expect(window.localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(getSession()).toBeNull();
  });
});
