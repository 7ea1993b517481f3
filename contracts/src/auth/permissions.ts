import { z } from 'zod';
import type { Role } from './roles.js';

/**
 * The permission catalogue served by GET /api/utilisateurs/permissions-catalog.
 * Slugs come from management.md §6 and tickets.md §6; the order is the order the
 * permissions modal shows them in.
 */
export const PERMISSION_CATALOGUE = [
  { slug: 'clients.view', label: 'Voir les clients' },
  { slug: 'clients.edit', label: 'Gérer les clients, sites, installations, QR codes et interlocuteurs' },
  { slug: 'agences.view', label: 'Voir les agences' },
  { slug: 'agences.edit', label: 'Gérer les agences' },
  { slug: 'users.view', label: 'Voir les utilisateurs' },
  { slug: 'users.edit', label: 'Gérer les utilisateurs' },
  { slug: 'users.permissions', label: 'Modifier les permissions des utilisateurs' },
  { slug: 'qrcodes.manage', label: 'Gérer les QR codes' },
  { slug: 'templates.view', label: 'Voir les modèles de documents' },
  { slug: 'templates.manage', label: 'Gérer les modèles de documents' },
  { slug: 'telesurveillance.edit', label: 'Gérer les comptes télésurveillance' },
  { slug: 'tickets.stats', label: 'Voir les statistiques de son agence' },
  { slug: 'tickets.stats-global', label: 'Voir les statistiques de toutes les agences' },
  { slug: 'tickets.devis', label: 'Générer les rapports et valider les devis' },
  { slug: 'metier.edit', label: 'Gérer les métiers' },
] as const;

export type PermissionSlug = (typeof PERMISSION_CATALOGUE)[number]['slug'];
export const PERMISSION_SLUGS = PERMISSION_CATALOGUE.map((entry) => entry.slug) as [PermissionSlug, ...PermissionSlug[]];

export const permissionSlugSchema = z.enum(PERMISSION_SLUGS, {
  error: (issue) => `Permission inconnue : ${String(issue.input)}`,
});

export const permissionCatalogueEntrySchema = z.object({ slug: z.string(), label: z.string() });
export type PermissionCatalogueEntry = z.infer<typeof permissionCatalogueEntrySchema>;
export const permissionCatalogueResponseSchema = z.array(permissionCatalogueEntrySchema);

export function isPermissionSlug(value: string): value is PermissionSlug {
  return (PERMISSION_SLUGS as readonly string[]).includes(value);
}

/** Catalogue order, duplicates removed: the form stored in events and compared for no-ops. */
export function normalizePermissionSlugs(slugs: readonly PermissionSlug[]): PermissionSlug[] {
  const wanted = new Set(slugs);
  return PERMISSION_SLUGS.filter((slug) => wanted.has(slug));
}

/**
 * Permissions a new user receives with a role (the user can then be tuned in the
 * permissions modal). Platform-wide catalogues (métiers, document templates,
 * remote-surveillance accounts that span agencies) and cross-agency statistics
 * are kept to admin_plus: an agency admin would otherwise change what every other
 * agency sees. Remote-surveillance accounts only see their ticket form, so they
 * get nothing.
 */
export const DEFAULT_PERMISSIONS_BY_ROLE: Readonly<Record<Role, readonly PermissionSlug[]>> = {
  admin_plus: PERMISSION_SLUGS,
  admin: [
    'clients.view',
    'clients.edit',
    'agences.view',
    'agences.edit',
    'users.view',
    'users.edit',
    'users.permissions',
    'qrcodes.manage',
    'templates.view',
    'tickets.stats',
    'tickets.devis',
  ],
  technicien_plus: ['clients.view', 'tickets.stats', 'tickets.devis'],
  technicien: ['tickets.devis'],
  telesurveillance: [],
};

export function defaultPermissionsForRole(role: Role): PermissionSlug[] {
  return [...DEFAULT_PERMISSIONS_BY_ROLE[role]];
}

export const PERMISSION_OTHER_GROUP = 'autres';

/** French titles of the permissions modal's groups; an unknown prefix is shown as is. */
export const PERMISSION_GROUP_LABELS: Readonly<Record<string, string>> = {
  clients: 'Clients',
  agences: 'Agences',
  users: 'Utilisateurs',
  qrcodes: 'QR codes',
  templates: 'Modèles de documents',
  telesurveillance: 'Télésurveillance',
  tickets: 'Tickets',
  metier: 'Métiers',
  [PERMISSION_OTHER_GROUP]: 'Autres',
};

export interface PermissionGroup<Entry extends { slug: string }> {
  /** The slug prefix before the first dot, or 'autres'. */
  group: string;
  label: string;
  permissions: Entry[];
}

/**
 * Groups catalogue entries by the slug prefix before the first dot (spec §2,
 * Users screen). Groups keep the order in which they first appear, so the
 * catalogue order drives the modal; 'autres' always comes last.
 */
export function groupPermissionsByPrefix<Entry extends { slug: string }>(entries: readonly Entry[]): PermissionGroup<Entry>[] {
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) {
    const dot = entry.slug.indexOf('.');
    const group = dot > 0 ? entry.slug.slice(0, dot) : PERMISSION_OTHER_GROUP;
    const members = groups.get(group) ?? [];
    members.push(entry);
    groups.set(group, members);
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => Number(a === PERMISSION_OTHER_GROUP) - Number(b === PERMISSION_OTHER_GROUP));
  return ordered.map(([group, permissions]) => ({ group, label: PERMISSION_GROUP_LABELS[group] ?? group, permissions }));
}
