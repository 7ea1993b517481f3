import type { SessionUser } from './session';

/**
 * Who may see what in the web app (spec tickets §6, management §2). The server
 * enforces the same rules; these only decide what to show and where to send.
 */

export const PERMISSIONS = {
  clientsView: 'clients.view',
  usersView: 'users.view',
  agencesView: 'agences.view',
  qrcodesManage: 'qrcodes.manage',
  templatesView: 'templates.view',
  templatesManage: 'templates.manage',
  metierEdit: 'metier.edit',
  telesurveillanceEdit: 'telesurveillance.edit',
  ticketsStats: 'tickets.stats',
  ticketsStatsGlobal: 'tickets.stats-global',
  ticketsDevis: 'tickets.devis',
} as const;

export type PermissionSlug = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const TELESURV_HOME = '/telesurv/ticket';
const STAFF_HOME = '/dashboard';

export function isTelesurveillance(user: SessionUser): boolean {
  return user.role === 'telesurveillance';
}

export function hasPermission(user: SessionUser, slug: PermissionSlug): boolean {
  return user.permissions.includes(slug);
}

function hasAnyPermission(user: SessionUser, ...slugs: PermissionSlug[]): boolean {
  return slugs.some((slug) => user.permissions.includes(slug));
}

/** Where a user lands after login (spec §2). */
export function homePathFor(user: SessionUser): string {
  return isTelesurveillance(user) ? TELESURV_HOME : STAFF_HOME;
}

export function canViewStats(user: SessionUser): boolean {
  return !isTelesurveillance(user) && hasAnyPermission(user, PERMISSIONS.ticketsStats, PERMISSIONS.ticketsStatsGlobal);
}

export interface ManagementScreen {
  path: string;
  /** Entry label in the Gestion menu. */
  label: string;
  /** Heading of the screen itself. */
  title: string;
  isAllowed: (user: SessionUser) => boolean;
}

/** The Gestion menu, in display order; the router gates the same paths with the same checks. */
export const MANAGEMENT_SCREENS: readonly ManagementScreen[] = [
  {
    path: '/clients',
    label: 'Clients',
    title: 'Clients',
    isAllowed: (u) => hasPermission(u, PERMISSIONS.clientsView),
  },
  {
    path: '/users',
    label: 'Utilisateurs',
    title: 'Utilisateurs',
    isAllowed: (u) => hasPermission(u, PERMISSIONS.usersView),
  },
  {
    path: '/agences',
    label: 'Agences',
    title: 'Agences',
    isAllowed: (u) => u.role === 'admin_plus' || hasPermission(u, PERMISSIONS.agencesView),
  },
  {
    path: '/qrcodes',
    label: 'QR Codes',
    title: 'QR Codes',
    isAllowed: (u) => hasPermission(u, PERMISSIONS.qrcodesManage),
  },
  {
    path: '/template-builder',
    label: 'Templates',
    title: 'Templates de documents',
    isAllowed: (u) => hasAnyPermission(u, PERMISSIONS.templatesView, PERMISSIONS.templatesManage),
  },
  {
    path: '/metiers',
    label: 'Métiers',
    title: 'Métiers',
    isAllowed: (u) => hasPermission(u, PERMISSIONS.metierEdit),
  },
  {
    path: '/telesurv',
    label: 'Télésurveillance',
    title: 'Comptes télésurveillance',
    isAllowed: (u) => hasPermission(u, PERMISSIONS.telesurveillanceEdit),
  },
];

export const STATS_SCREEN: ManagementScreen = {
  path: '/stats',
  label: 'Statistiques',
  title: 'Statistiques',
  isAllowed: canViewStats,
};

export function allowedManagementScreens(user: SessionUser): ManagementScreen[] {
  if (isTelesurveillance(user)) return [];
  return MANAGEMENT_SCREENS.filter((screen) => screen.isAllowed(user));
}
