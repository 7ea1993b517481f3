import { hasAnyPermission, type PermissionHolder } from './access.js';
import type { PermissionSlug } from './permissions.js';
import { STAFF_ROLES, type Role } from './roles.js';

/*
 * Who may call each HTTP route: the ONE table the server enforces (a central
 * hook in command-api/src/app.ts looks every registered route up here, and a
 * route missing from it stops the app at start-up) and the access-matrix test
 * derives its expectations from. Routes keep their finer checks (agency
 * scope → 404, escalation guards, body-dependent permissions such as
 * `attach_report` needing tickets.devis); this table is the door.
 *
 * Keys are `METHOD /path` exactly as Fastify registers them (`:param`).
 */

/** No token: the route is public (login, the QR form, health). */
export interface PublicAccess {
  readonly who: 'public';
  readonly why: string;
}

/**
 * The route reads its own credential, since a browser opens it as a plain
 * link (report and export downloads: `?token=`, a short-lived token bound to
 * the one file; ticket photos: `?exp=&sig=`, a signed link bound to the file) or a WebSocket (the session token in its first message). The
 * route authenticates itself; the table only records it.
 */
export interface LinkTokenAccess {
  readonly who: 'link-token';
  readonly why: string;
}

/** Who answer 403 gets when refused; the agency saves have their own text (management.md §8). */
export type AccessRefusal = 'default' | 'agence-save';

export interface SignedInAccess {
  readonly who: 'signed-in';
  /** The roles that may call the route at all. */
  readonly roles: readonly Role[];
  /**
   * Staff roles need one of these too (`hasPermission`, so admin_plus's implied
   * slugs count). A télésurveillance account holds no permission (tickets.md §6):
   * when its role is listed, the role alone is its grant.
   */
  readonly anyOf?: readonly PermissionSlug[];
  readonly refusal?: AccessRefusal;
}

export type RouteAccess = PublicAccess | LinkTokenAccess | SignedInAccess;

export const ACCESS_REFUSAL_MESSAGES: Readonly<Record<AccessRefusal, string>> = {
  default: 'Accès refusé.',
  'agence-save': "Accès refusé: vous n'avez pas la permission de créer/modifier/supprimer une agence.",
};

const STAFF: readonly Role[] = STAFF_ROLES;
const EVERYONE: readonly Role[] = [...STAFF_ROLES, 'telesurveillance'];

const open = (why: string): PublicAccess => ({ who: 'public', why });
const link = (why: string): LinkTokenAccess => ({ who: 'link-token', why });
/** Every staff role; with slugs, only staff holding one of them. */
const staff = (...anyOf: PermissionSlug[]): SignedInAccess => ({ who: 'signed-in', roles: STAFF, ...(anyOf.length > 0 ? { anyOf } : {}) });
/** Every signed-in account, télésurveillance included. */
const everyone: SignedInAccess = { who: 'signed-in', roles: EVERYONE };
const agenceSave = (access: SignedInAccess): SignedInAccess => ({ ...access, refusal: 'agence-save' });

export const ROUTE_ACCESS = {
  // --- public and link-token routes -------------------------------------------------
  'POST /api/login': open('sign-in'),
  'POST /api/logout': open('Déconnexion: the session token to end is in the body, its own proof (as RFC 7009)'),
  'GET /api/health': open('load balancers and probes: the status only; the details for HEALTH_DETAILS_ACCESS'),
  'GET /api/files/:ref': link('ticket photos for <img>: ?exp=&sig= (a short-lived link bound to the file, in ticket answers) or a session that may see a ticket holding it'),
  'GET /api/public/captcha': open('QR form (rate-limited per IP)'),
  'GET /api/public/qr-keys/:key': open('QR form: is the link valid, nothing else (rate-limited per IP)'),
  'POST /api/public/ticket-create': open('QR form: QR key + captcha, rate-limited per IP'),
  'GET /api/reports/download/:filename': link('?token= : a short-lived download token bound to the file (a session token only as bearer header)'),
  'GET /api/exports/:id/download': link('?token= : a short-lived download token bound to the export (a session token only as bearer header), then the export scope'),
  'GET /ws': link('the session token in the first message (older clients: ?token=), checked before joining and while open'),

  // --- tickets (tickets.md §6: télésurveillance only creates) -------------------------
  'GET /api/tickets': staff(),
  'GET /api/tickets/clos': staff(),
  'GET /api/tickets/summary': staff(),
  'GET /api/tickets/:id': staff(),
  'GET /api/tickets/:id/interventions': staff(),
  'GET /api/tickets/:id/history': staff(),
  'POST /api/tickets/manual/ticket-create': everyone,
  // Taking in charge is for every staff member; `nom_rapport` needs tickets.devis (checked by the route).
  'PATCH /api/tickets/:id': staff(),
  'PATCH /api/tickets/:id/close': staff(),
  'POST /api/tickets/:id/intervention': staff(),
  // « Je suis sur site » (issue 32): whoever may record the visit may record its arrival.
  'POST /api/tickets/:id/sur-site': staff(),
  'PATCH /api/tickets/:id/interventions/:interventionId': staff('tickets.devis'),
  'PATCH /api/tickets/:id/update': staff('tickets.devis'),

  // --- reports and exports ------------------------------------------------------------
  'POST /api/reports/:file': staff('tickets.devis'),
  'POST /api/reports/send-email': staff('tickets.devis'),
  // A fresh download link for a report the screen shows (downloading needs no tickets.devis).
  'GET /api/reports/download/:filename/link': staff(),
  // The ticket detail's reports and who they were e-mailed to (sending needs tickets.devis).
  'GET /api/tickets/:id/reports': staff(),
  // The kind decides (stats: tickets.stats(-global); QR codes: qrcodes.manage), checked by the route.
  'POST /api/exports': staff('tickets.stats', 'tickets.stats-global', 'qrcodes.manage'),
  'GET /api/exports/:id': staff('tickets.stats', 'tickets.stats-global', 'qrcodes.manage'),

  // --- clients, sites, installations, contacts (docs/api-additions.md "Access") -------
  'GET /api/clients': staff(),
  'GET /api/clients/:id/sites': staff(),
  'GET /api/clients/by-agence/:id': everyone,
  'POST /api/clients': staff('clients.edit'),
  'PUT /api/clients/:id': staff('clients.edit'),
  'DELETE /api/clients/:id': staff('clients.edit'),
  'GET /api/sites/client/:id': everyone,
  'GET /api/sites/:id/installations': everyone,
  'POST /api/sites': staff('clients.edit'),
  'PUT /api/sites/:id': staff('clients.edit'),
  'DELETE /api/sites/:id': staff('clients.edit'),
  'POST /api/installations': staff('clients.edit'),
  'PUT /api/installations/:id': staff('clients.edit'),
  'DELETE /api/installations/:id': staff('clients.edit'),
  'GET /api/interlocuteurs/installation/:id': everyone,
  'GET /api/interlocuteurs/site/:id': everyone,
  'GET /api/interlocuteurs/site-only/:id': everyone,
  'GET /api/interlocuteurs/client/:id': everyone,
  'POST /api/interlocuteurs': staff('clients.edit'),
  'PUT /api/interlocuteurs/:id': staff('clients.edit'),
  'DELETE /api/interlocuteurs/:id': staff('clients.edit'),

  // --- QR codes -------------------------------------------------------------------------
  'GET /api/qrcodes/by-installation/:id': staff('qrcodes.manage', 'clients.view', 'clients.edit'),
  'GET /api/qrcodes/:id/image.svg': staff('qrcodes.manage', 'clients.view', 'clients.edit'),
  'GET /api/qrcodes/unused': staff('qrcodes.manage', 'clients.edit'),
  'GET /api/qrcodes/unused-count': staff('qrcodes.manage'),
  // Unassigned codes need qrcodes.manage, codes straight onto an installation clients.edit (checked by the route).
  'POST /api/qrcodes/batch': staff('qrcodes.manage', 'clients.edit'),
  'POST /api/qrcodes/export': staff('qrcodes.manage'),
  'POST /api/qrcodes/:id/assign': staff('clients.edit'),
  'DELETE /api/qrcodes/:id/assign': staff('clients.edit'),

  // --- agencies (creating is admin_plus's: docs/api-additions.md) -----------------------
  'GET /api/agences': { who: 'signed-in', roles: EVERYONE, anyOf: ['agences.view', 'templates.view', 'templates.manage'] },
  'GET /api/agences/:id/horaires': { who: 'signed-in', roles: EVERYONE, anyOf: ['agences.view', 'templates.view', 'templates.manage'] },
  'POST /api/agences': agenceSave({ who: 'signed-in', roles: ['admin_plus'], anyOf: ['agences.edit'] }),
  // templates.manage may change id_template only (checked by the route).
  'PUT /api/agences/:id': agenceSave(staff('agences.edit', 'templates.manage')),
  'DELETE /api/agences/:id': agenceSave(staff('agences.edit')),
  'PUT /api/agences/:id/horaires': agenceSave(staff('agences.edit')),

  // --- users -------------------------------------------------------------------------------
  // Fields depend on users.view (pickers get names only).
  'GET /api/utilisateurs': everyone,
  'GET /api/utilisateurs/agences': staff('users.view', 'users.edit'),
  'GET /api/utilisateurs/permissions-catalog': staff('users.view', 'users.permissions'),
  'GET /api/utilisateurs/:id/permissions': staff('users.view', 'users.permissions'),
  'POST /api/utilisateurs': staff('users.edit'),
  'PUT /api/utilisateurs/:id': staff('users.edit'),
  'DELETE /api/utilisateurs/:id': staff('users.edit'),
  'PUT /api/utilisateurs/:id/permissions': staff('users.permissions'),
  'POST /api/utilisateurs/change-password': everyone,

  // --- télésurveillance accounts -----------------------------------------------------------
  'GET /api/telesurv': staff('telesurveillance.edit'),
  'POST /api/telesurv': staff('telesurveillance.edit'),
  'PUT /api/telesurv/:id': staff('telesurveillance.edit'),
  'DELETE /api/telesurv/:id': staff('telesurveillance.edit'),
  'GET /api/telesurv/:id/agences': staff('telesurveillance.edit'),
  'PUT /api/telesurv/:id/agences': staff('telesurveillance.edit'),
  'GET /api/telesurv/me/agences': { who: 'signed-in', roles: ['telesurveillance'] },

  // --- métiers (the list is a picker for everyone) ------------------------------------------
  'GET /api/metiers': everyone,
  'POST /api/metiers': staff('metier.edit'),
  'PUT /api/metiers/:id': staff('metier.edit'),
  'PUT /api/metiers/reorder': staff('metier.edit'),
  'DELETE /api/metiers/:id': staff('metier.edit'),

  // --- templates -----------------------------------------------------------------------------
  'GET /api/templates': staff('templates.view', 'templates.manage'),
  // Renders the editor's content for a sample ticket; reading, like the list.
  'POST /api/templates/preview': staff('templates.view', 'templates.manage'),
  'POST /api/templates': staff('templates.manage'),
  'PUT /api/templates/:id': staff('templates.manage'),
  'DELETE /api/templates/:id': staff('templates.manage'),

  // --- statistics ----------------------------------------------------------------------------
  'GET /api/stats/tickets': staff('tickets.stats', 'tickets.stats-global'),
  'GET /api/stats/tickets.csv': staff('tickets.stats', 'tickets.stats-global'),
} as const satisfies Readonly<Record<string, RouteAccess>>;

export type RouteKey = keyof typeof ROUTE_ACCESS;

/**
 * The OpenAPI reference (`/api/docs`, its JSON and YAML, its UI's files): its
 * routes belong to the documentation plugin, so it is outside the table, behind
 * this one door. It maps every route, parameter and permission of the product:
 * for admin_plus, not for an anonymous visitor.
 */
export const API_DOCS_ACCESS: SignedInAccess = { who: 'signed-in', roles: ['admin_plus'] };

/**
 * `GET /api/health` answers its status to anyone (load balancers, probes); the
 * details (database and Redis reachability, log head, projection lag, stopped
 * read models with the failing event, live clients) describe the platform's
 * inside, so only to a caller passing this door, on the same route.
 */
export const HEALTH_DETAILS_ACCESS: SignedInAccess = { who: 'signed-in', roles: ['admin_plus'] };

/** `GET /api/tickets/:id`; HEAD is looked up as GET (Fastify adds it to every GET). */
export function routeKey(method: string, path: string): string {
  const verb = method.toUpperCase();
  return `${verb === 'HEAD' ? 'GET' : verb} ${path}`;
}

export function routeAccessOf(method: string, path: string): RouteAccess | undefined {
  return (ROUTE_ACCESS as Readonly<Record<string, RouteAccess>>)[routeKey(method, path)];
}

/**
 * Routes the table must cover: the API and the WebSocket. Everything else the
 * server registers is the built web UI's static files, public by nature.
 */
export function isApiRoute(path: string): boolean {
  return path.startsWith('/api/') || path === '/ws';
}

export type RouteCaller = PermissionHolder;

/** True when a signed-in caller passes the route's door (finer checks may still refuse). */
export function canCallRoute(access: SignedInAccess, user: RouteCaller): boolean {
  if (!access.roles.includes(user.role)) return false;
  if (user.role === 'telesurveillance' || !access.anyOf) return true;
  return hasAnyPermission(user, access.anyOf);
}

/** The French 403 text of a refused signed-in route. */
export function accessRefusalMessage(access: SignedInAccess): string {
  return ACCESS_REFUSAL_MESSAGES[access.refusal ?? 'default'];
}
