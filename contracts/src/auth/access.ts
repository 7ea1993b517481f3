import { ForbiddenError, ValidationError } from '../errors.js';
import type { PermissionSlug } from './permissions.js';
import { STAFF_ROLES, type Role, type StaffRole } from './roles.js';
import type { SessionUser } from './session-user.js';

/** What the access rules need to know about a user; a session user fits. */
export type PermissionHolder = Pick<SessionUser, 'role' | 'permissions'>;

/**
 * Slugs that management.md §6 grants "(or admin_plus)", plus agences.view because
 * admin_plus "sees the agencies screen regardless of permission". They hold even
 * if an admin_plus's stored permission list was trimmed.
 */
export const ADMIN_PLUS_IMPLIED_PERMISSIONS: readonly PermissionSlug[] = [
  'clients.edit',
  'agences.view',
  'agences.edit',
  'users.edit',
  'users.permissions',
];

/**
 * Remote-surveillance accounts see only their ticket form (tickets.md §6), so they
 * hold no permission even if one was stored for them by mistake.
 */
export function hasPermission(user: PermissionHolder | null | undefined, slug: PermissionSlug): boolean {
  if (!user || user.role === 'telesurveillance') return false;
  if (user.role === 'admin_plus' && ADMIN_PLUS_IMPLIED_PERMISSIONS.includes(slug)) return true;
  return user.permissions.includes(slug);
}

export function hasAnyPermission(user: PermissionHolder | null | undefined, slugs: readonly PermissionSlug[]): boolean {
  return slugs.some((slug) => hasPermission(user, slug));
}

// ---------------------------------------------------------------------------
// Navigation: the Gestion dropdown and the Statistiques link
// ---------------------------------------------------------------------------

export interface ManagementMenuEntry {
  key: 'clients' | 'users' | 'agences' | 'qrcodes' | 'templates' | 'metiers' | 'telesurv';
  label: string;
  path: string;
  /** Any one of them opens the entry. */
  anyOf: readonly PermissionSlug[];
}

/** In the order of tickets.md §2 (navigation bar). */
export const MANAGEMENT_MENU_ENTRIES: readonly ManagementMenuEntry[] = [
  { key: 'clients', label: 'Clients', path: '/clients', anyOf: ['clients.view'] },
  { key: 'users', label: 'Utilisateurs', path: '/users', anyOf: ['users.view'] },
  // admin_plus reaches it through ADMIN_PLUS_IMPLIED_PERMISSIONS.
  { key: 'agences', label: 'Agences', path: '/agences', anyOf: ['agences.view'] },
  { key: 'qrcodes', label: 'QR Codes', path: '/qrcodes', anyOf: ['qrcodes.manage'] },
  { key: 'templates', label: 'Templates', path: '/template-builder', anyOf: ['templates.view', 'templates.manage'] },
  { key: 'metiers', label: 'Métiers', path: '/metiers', anyOf: ['metier.edit'] },
  { key: 'telesurv', label: 'Télésurveillance', path: '/telesurv', anyOf: ['telesurveillance.edit'] },
];

export function canSeeManagementEntry(user: PermissionHolder | null | undefined, entry: ManagementMenuEntry): boolean {
  return hasAnyPermission(user, entry.anyOf);
}

export function visibleManagementEntries(user: PermissionHolder | null | undefined): ManagementMenuEntry[] {
  return MANAGEMENT_MENU_ENTRIES.filter((entry) => canSeeManagementEntry(user, entry));
}

/** The Gestion dropdown is shown only when at least one entry is. */
export function canSeeManagementMenu(user: PermissionHolder | null | undefined): boolean {
  return visibleManagementEntries(user).length > 0;
}

export const STATS_ROUTE = '/stats';

/** Statistiques link and /stats screen. */
export function canSeeStats(user: PermissionHolder | null | undefined): boolean {
  return hasAnyPermission(user, ['tickets.stats', 'tickets.stats-global']);
}

/** The Agence filter (option Toutes) and every agency's figures. */
export function canSeeGlobalStats(user: PermissionHolder | null | undefined): boolean {
  return hasPermission(user, 'tickets.stats-global');
}

// ---------------------------------------------------------------------------
// Agency scope and escalation guards (used by handlers and by the forms)
// ---------------------------------------------------------------------------

/** Every role but admin_plus is locked to its own agency (§6). */
export function isLockedToOwnAgence(user: Pick<SessionUser, 'role'>): boolean {
  return user.role !== 'admin_plus';
}

/**
 * The agency a write lands in. admin_plus picks one (and must); everybody else
 * writes to their own agency: an absent choice means theirs, another agency is
 * refused rather than silently replaced, so a forged request is visible.
 */
export function resolveScopedAgenceId(user: Pick<SessionUser, 'role' | 'agence_id'>, requested: string | null | undefined): string {
  if (!isLockedToOwnAgence(user)) {
    if (!requested) throw new ValidationError('Veuillez sélectionner une agence.');
    return requested;
  }
  if (!user.agence_id) throw new ForbiddenError("Votre compte n'est rattaché à aucune agence.");
  if (requested && requested !== user.agence_id) {
    throw new ForbiddenError('Vous ne pouvez agir que sur votre propre agence.');
  }
  return user.agence_id;
}

/**
 * Only admin_plus "may grant the admin role" (§6); we read it as: admin_plus
 * grants every staff role, everybody else only the two technician roles.
 */
export function assignableRoles(user: Pick<SessionUser, 'role'>): StaffRole[] {
  return user.role === 'admin_plus' ? [...STAFF_ROLES] : ['technicien_plus', 'technicien'];
}

export function canAssignRole(user: Pick<SessionUser, 'role'>, role: Role): boolean {
  return (assignableRoles(user) as Role[]).includes(role);
}

/** No escalation: outside admin_plus, nobody grants or withdraws a permission they do not hold. */
export function canGrantPermission(user: PermissionHolder, slug: PermissionSlug): boolean {
  if (user.role === 'admin_plus') return true;
  return hasPermission(user, 'users.permissions') && hasPermission(user, slug);
}

/**
 * The slugs a permission save would add or remove that the caller may not grant.
 * Only changes count: an agency admin may save the set of a user who holds
 * tickets.stats-global (granted by admin_plus) as long as that slug is untouched.
 */
export function forbiddenPermissionChanges(
  user: PermissionHolder,
  before: readonly PermissionSlug[],
  after: readonly PermissionSlug[],
): PermissionSlug[] {
  const changed = [...before.filter((slug) => !after.includes(slug)), ...after.filter((slug) => !before.includes(slug))];
  return [...new Set(changed)].filter((slug) => !canGrantPermission(user, slug));
}
