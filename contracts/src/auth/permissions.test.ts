import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PERMISSIONS_BY_ROLE,
  PERMISSION_CATALOGUE,
  PERMISSION_SLUGS,
  defaultPermissionsForRole,
  groupPermissionsByPrefix,
  normalizePermissionSlugs,
  permissionSlugSchema,
} from './permissions.js';
import { ROLES, ROLE_LABELS, staffRoleSchema } from './roles.js';
import { sessionUserSchema } from './session-user.js';

describe('permission catalogue', () => {
  it('holds every slug of management.md §6 and tickets.md §6, once, each with a French label', () => {
    const specSlugs = [
      'clients.view', 'clients.edit', 'agences.view', 'agences.edit', 'users.view', 'users.edit',
      'users.permissions', 'qrcodes.manage', 'templates.view', 'templates.manage', 'telesurveillance.edit',
      'tickets.stats', 'tickets.stats-global', 'metier.edit', 'tickets.devis',
    ];
    expect([...PERMISSION_SLUGS].sort()).toEqual([...specSlugs].sort());
    for (const entry of PERMISSION_CATALOGUE) expect(entry.label.length).toBeGreaterThan(3);
  });

  it('refuses an unknown slug with a French message naming it', () => {
    const result = permissionSlugSchema.safeParse('tickets.delete');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Permission inconnue : tickets.delete');
  });

  it('normalizes a set to catalogue order without duplicates', () => {
    expect(normalizePermissionSlugs(['tickets.devis', 'clients.view', 'tickets.devis'])).toEqual(['clients.view', 'tickets.devis']);
  });
});

describe('roles', () => {
  it('labels every role in French', () => {
    expect(ROLES.map((role) => ROLE_LABELS[role])).toEqual([
      'Administrateur plateforme', "Administrateur d'agence", 'Technicien +', 'Technicien', 'Télésurveillance',
    ]);
  });

  it('does not offer the telesurveillance role on the users screen', () => {
    expect(staffRoleSchema.safeParse('telesurveillance').error?.issues[0]?.message).toBe('Veuillez sélectionner un rôle.');
  });
});

describe('default permissions per role', () => {
  it('gives admin_plus the whole catalogue', () => {
    expect(defaultPermissionsForRole('admin_plus')).toEqual([...PERMISSION_SLUGS]);
  });

  it('gives an agency admin its agency work and stats, but not the platform-wide catalogues', () => {
    const admin = defaultPermissionsForRole('admin');
    expect(admin).toEqual(expect.arrayContaining(['clients.edit', 'users.permissions', 'agences.edit', 'tickets.stats', 'tickets.devis']));
    expect(admin).not.toContain('tickets.stats-global');
    expect(admin).not.toContain('metier.edit');
    expect(admin).not.toContain('templates.manage');
    expect(admin).not.toContain('telesurveillance.edit');
  });

  it('gives technicians what the brief says and telesurveillance nothing', () => {
    expect(defaultPermissionsForRole('technicien_plus')).toEqual(['clients.view', 'tickets.stats', 'tickets.devis']);
    expect(defaultPermissionsForRole('technicien')).toEqual(['tickets.devis']);
    expect(defaultPermissionsForRole('telesurveillance')).toEqual([]);
  });

  it('returns a copy, so a caller cannot change the defaults', () => {
    defaultPermissionsForRole('technicien').push('metier.edit');
    expect(DEFAULT_PERMISSIONS_BY_ROLE.technicien).toEqual(['tickets.devis']);
  });
});

describe('groupPermissionsByPrefix', () => {
  it('groups by the prefix before the dot, in order of appearance, with autres last', () => {
    const groups = groupPermissionsByPrefix([
      { slug: 'legacy', label: 'Ancien' },
      { slug: 'users.view', label: 'a' },
      { slug: 'clients.view', label: 'b' },
      { slug: 'users.edit', label: 'c' },
      { slug: 'tickets.stats-global', label: 'd' },
    ]);
    expect(groups.map((g) => [g.group, g.label, g.permissions.map((p) => p.slug)])).toEqual([
      ['users', 'Utilisateurs', ['users.view', 'users.edit']],
      ['clients', 'Clients', ['clients.view']],
      ['tickets', 'Tickets', ['tickets.stats-global']],
      ['autres', 'Autres', ['legacy']],
    ]);
  });

  it('puts a slug starting with a dot in autres and shows an unknown prefix as is', () => {
    const groups = groupPermissionsByPrefix([{ slug: '.odd' }, { slug: 'exports.run' }]);
    expect(groups.map((g) => [g.group, g.label])).toEqual([['exports', 'exports'], ['autres', 'Autres']]);
  });

  it('returns no group for an empty catalogue', () => {
    expect(groupPermissionsByPrefix([])).toEqual([]);
  });
});

describe('session user', () => {
  it('parses the stored user, keeping unknown slugs', () => {
    const user = {
      id: '6f1c2b9e-3d4a-4f5b-8c6d-7e8f9a0b1c2d', role: 'technicien', prenom: 'Léa', nom: 'Martin',
      agence_id: '0b7d0f0e-1c2d-4e3f-9a4b-5c6d7e8f9a0b', agence_nom: 'Lyon', permissions: ['tickets.devis', 'future.thing'],
    };
    expect(sessionUserSchema.parse(user)).toEqual(user);
  });

  it('refuses an unknown role', () => {
    expect(sessionUserSchema.safeParse({ id: '6f1c2b9e-3d4a-4f5b-8c6d-7e8f9a0b1c2d', role: 'root', prenom: '', nom: '', agence_id: null, agence_nom: null, permissions: [] }).success).toBe(false);
  });
});
