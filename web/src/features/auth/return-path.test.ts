import { describe, expect, it } from 'vitest';
import { loginPathFor, returnPathFrom } from './return-path';

const at = (path: string) => {
  const url = new URL(path, 'http://localhost');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('return path after login', () => {
  it('carries the page, its filters and its anchor, and reads them back unchanged', () => {
    const login = loginPathFor(at('/tickets/abc-1?onglet=historique&x=a%26b#interventions'));
    expect(login.startsWith('/login?retour=')).toBe(true);
    expect(returnPathFrom(login.slice('/login'.length))).toBe('/tickets/abc-1?onglet=historique&x=a%26b#interventions');
  });

  it('carries nothing from the home page', () => {
    expect(loginPathFor(at('/'))).toBe('/login');
  });

  it.each([
    ['absent', ''],
    ['empty', '?retour='],
    ['another site', '?retour=https%3A%2F%2Failleurs.example%2F'],
    ['protocol-relative', '?retour=%2F%2Failleurs.example'],
    ['backslash', '?retour=%2F%5Cailleurs.example'],
    ['a script', '?retour=javascript%3Aalert(1)'],
    ['relative', '?retour=tickets'],
    ['a control character', '?retour=%2Ftickets%0A%2F%2Failleurs.example'],
    ['the login itself', '?retour=%2Flogin'],
    ['overlong', `?retour=%2F${'x'.repeat(2048)}`],
  ])('refuses a return path that is %s', (_case, search) => {
    expect(returnPathFrom(search)).toBeNull();
  });

  it('never sends an unreadable page to the login', () => {
    expect(loginPathFor(at(`/${'x'.repeat(3000)}`))).toBe('/login');
  });
});
