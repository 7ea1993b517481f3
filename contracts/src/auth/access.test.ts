import { describe, expect, it } from 'vitest';
import { ForbiddenError, ValidationError } from '../errors.js';
import {
  MANAGEMENT_MENU_ENTRIES,
  assignableRoles,
  canAssignRole,
  canGrantPermission,
  canSeeGlobalStats,
  canSeeManagementEntry,
  canSeeManagementMenu,
  canSeeStats,
  forbiddenPermissionChanges,
  hasPermission,
  isLockedToOwnAgence,
  resolveScopedAgenceId,
  visibleManagementEntries,
} from './access.js';
import type { PermissionSlug } from './permissions.js';
import type { Role } from './roles.js';

const AGENCE = '0b7d0f0e-1c2d-4e3f-9a4b-5c6d7e8f9a0b';
const OTHER_AGENCE = '1c8e1a1f-2d3e-4f4a-8b5c-6d7e8f9a0b1c';
const user = (role: Role, permissions: PermissionSlug[] = [], agence_id: string | null = AGENCE) => ({ role, permissions, agence_id });
const entry = (key: string) => MANAGEMENT_MENU_ENTRIES.find((e) => e.key === key)!;

describe('hasPermission', () => {
  it('is true only for a held slug', () => {
    expect(hasPermission(user('technicien', ['tickets.devis']), 'tickets.devis')).toBe(true);
    expect(hasPermission(user('technicien', ['tickets.devis']), 'clients.edit')).toBe(false);
  });

  it('grants admin_plus the "(or admin_plus)" slugs and the agencies screen even without them stored', () => {
    const trimmed = user('admin_plus', []);
    for (const slug of ['clients.edit', 'agences.edit', 'users.edit', 'users.permissions', 'agences.view'] as const) {
      expect(hasPermission(trimmed, slug)).toBe(true);
    }
    expect(hasPermission(trimmed, 'metier.edit')).toBe(false);
    expect(hasPermission(trimmed, 'tickets.stats-global')).toBe(false);
  });

  it('does not give an admin the admin_plus shortcuts', () => {
    expect(hasPermission(user('admin', []), 'clients.edit')).toBe(false);
  });

  it('never grants anything to a telesurveillance account or to nobody', () => {
    expect(hasPermission(user('telesurveillance', ['clients.view']), 'clients.view')).toBe(false);
    expect(hasPermission(null, 'clients.view')).toBe(false);
    expect(hasPermission(undefined, 'clients.view')).toBe(false);
  });
});

describe('Gestion menu', () => {
  it('lists the seven entries with their routes', () => {
    expect(MANAGEMENT_MENU_ENTRIES.map((e) => [e.label, e.path])).toEqual([
      ['Clients', '/clients'], ['Utilisateurs', '/users'], ['Agences', '/agences'], ['QR Codes', '/qrcodes'],
      ['Templates', '/template-builder'], ['Métiers', '/metiers'], ['Télésurveillance', '/telesurv'],
    ]);
  });

  it('shows an entry only with its permission', () => {
    const tech = user('technicien_plus', ['clients.view']);
    expect(canSeeManagementEntry(tech, entry('clients'))).toBe(true);
    expect(canSeeManagementEntry(tech, entry('users'))).toBe(false);
    expect(visibleManagementEntries(tech).map((e) => e.key)).toEqual(['clients']);
  });

  it('opens Templates with either templates.view or templates.manage', () => {
    expect(canSeeManagementEntry(user('admin', ['templates.view']), entry('templates'))).toBe(true);
    expect(canSeeManagementEntry(user('admin', ['templates.manage']), entry('templates'))).toBe(true);
    expect(canSeeManagementEntry(user('admin', []), entry('templates'))).toBe(false);
  });

  it('shows Agences to admin_plus without agences.view, not to an admin without it', () => {
    expect(canSeeManagementEntry(user('admin_plus', []), entry('agences'))).toBe(true);
    expect(canSeeManagementEntry(user('admin', []), entry('agences'))).toBe(false);
  });

  it('hides the whole dropdown when no entry is visible, and always for telesurveillance', () => {
    expect(canSeeManagementMenu(user('technicien', ['tickets.devis']))).toBe(false);
    expect(canSeeManagementMenu(user('technicien', ['metier.edit']))).toBe(true);
    expect(canSeeManagementMenu(user('telesurveillance', ['clients.view']))).toBe(false);
  });
});

describe('statistics access', () => {
  it('needs tickets.stats or tickets.stats-global; the agency filter needs the global one', () => {
    expect(canSeeStats(user('technicien_plus', ['tickets.stats']))).toBe(true);
    expect(canSeeGlobalStats(user('technicien_plus', ['tickets.stats']))).toBe(false);
    expect(canSeeStats(user('admin', ['tickets.stats-global']))).toBe(true);
    expect(canSeeGlobalStats(user('admin', ['tickets.stats-global']))).toBe(true);
    expect(canSeeStats(user('technicien', ['tickets.devis']))).toBe(false);
  });
});

describe('agency scope', () => {
  it('locks every role but admin_plus to its own agency', () => {
    expect(isLockedToOwnAgence({ role: 'admin_plus' })).toBe(false);
    expect(isLockedToOwnAgence({ role: 'admin' })).toBe(true);
  });

  it('lets admin_plus write to the agency it picked, and requires a pick', () => {
    expect(resolveScopedAgenceId(user('admin_plus'), OTHER_AGENCE)).toBe(OTHER_AGENCE);
    expect(() => resolveScopedAgenceId(user('admin_plus'), null)).toThrow(new ValidationError('Veuillez sélectionner une agence.'));
  });

  it('writes for others to their own agency and refuses another one', () => {
    expect(resolveScopedAgenceId(user('admin'), undefined)).toBe(AGENCE);
    expect(resolveScopedAgenceId(user('admin'), AGENCE)).toBe(AGENCE);
    expect(() => resolveScopedAgenceId(user('admin'), OTHER_AGENCE)).toThrow(ForbiddenError);
    expect(() => resolveScopedAgenceId(user('technicien', [], null), undefined)).toThrow(ForbiddenError);
  });
});

describe('escalation guards', () => {
  it('lets only admin_plus grant admin roles', () => {
    expect(assignableRoles({ role: 'admin_plus' })).toEqual(['admin_plus', 'admin', 'technicien_plus', 'technicien']);
    expect(assignableRoles({ role: 'admin' })).toEqual(['technicien_plus', 'technicien']);
    expect(canAssignRole({ role: 'admin' }, 'admin')).toBe(false);
    expect(canAssignRole({ role: 'admin' }, 'telesurveillance')).toBe(false);
  });

  it('lets a non admin_plus grant only what it holds, with users.permissions', () => {
    const admin = user('admin', ['users.permissions', 'clients.view']);
    expect(canGrantPermission(admin, 'clients.view')).toBe(true);
    expect(canGrantPermission(admin, 'tickets.stats-global')).toBe(false);
    expect(canGrantPermission(user('admin', ['clients.view']), 'clients.view')).toBe(false);
    expect(canGrantPermission(user('admin_plus'), 'tickets.stats-global')).toBe(true);
  });

  it('checks only the slugs a save changes', () => {
    const admin = user('admin', ['users.permissions', 'clients.view', 'tickets.devis']);
    expect(forbiddenPermissionChanges(admin, ['tickets.stats-global', 'clients.view'], ['tickets.stats-global', 'clients.view', 'tickets.devis'])).toEqual([]);
    expect(forbiddenPermissionChanges(admin, ['tickets.stats-global'], [])).toEqual(['tickets.stats-global']);
    expect(forbiddenPermissionChanges(admin, [], ['metier.edit'])).toEqual(['metier.edit']);
  });
});
