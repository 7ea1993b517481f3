import { randomUUID } from 'node:crypto';
import type { Role } from '@fsm/contracts';
import { DEMO_PASSWORD, demoEmail, runDemoSeed } from '../../src/seed/demo-seed.js';
import { demoSeedSteps } from '../../src/seed/demo-steps.js';
import { DEMO_SIGNATURE_DATA_URL } from '../../src/seed/ticket-demo-step.js';
import type { ApiHarness } from '../../src/test-support/api-harness.js';

/*
 * How to build a valid request for every signed-in route (moved from the
 * former permission-matrix.test.ts). Requests are built so an allowed caller
 * changes nothing that matters to the next one (same values, unknown ids).
 * Who may call each route is NOT decided here: contracts' ROUTE_ACCESS says;
 * `was` keeps the letters of the matrix as it stood before the table, so a
 * test can prove the table did not change anybody's access.
 */

export const ROLES: Role[] = ['admin_plus', 'admin', 'technicien_plus', 'technicien', 'telesurveillance'];
export type Who = 'A' | 'a' | 'T' | 't' | 'S';
export const ROLE_OF: Record<Who, Role> = { A: 'admin_plus', a: 'admin', T: 'technicien_plus', t: 'technicien', S: 'telesurveillance' };

export interface Ids {
  agenceId: string;
  clientId: string;
  siteId: string;
  installationId: string;
  interlocuteurId: string;
  qrCodeId: string;
  metierId: string;
  templateId: string;
  ticketId: string;
  closedTicketId: string;
  technicienId: string;
  telesurvId: string;
  tokens: Record<Role, string>;
  agence: Record<string, unknown>;
  client: Record<string, unknown>;
  site: Record<string, unknown>;
  installation: Record<string, unknown>;
  metier: Record<string, unknown>;
}

export interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  route: string;
  url: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** Who the route let through before the table existed (session 1's matrix): the table must agree. */
  was: string;
}

const unknown = randomUUID();
const staff = 'AaTt';
const visit = (ids: Ids) => ({
  constat_tech: 'Contrôle effectué',
  remarque_tech: '',
  devis: 0,
  etat_arrivee: 'En service',
  etat_depart: 'Fonctionnel',
  temps_trajet: '00:10',
  signature_client: DEMO_SIGNATURE_DATA_URL,
  signature_technicien: DEMO_SIGNATURE_DATA_URL,
  technicien_id: ids.technicienId,
});

export const CASES: Case[] = [
  // Tickets (spec tickets §6: télésurveillance only creates)
  { method: 'GET', route: '/api/tickets', url: () => '/api/tickets', was: staff },
  { method: 'GET', route: '/api/tickets/clos', url: () => '/api/tickets/clos', was: staff },
  { method: 'GET', route: '/api/tickets/summary', url: () => '/api/tickets/summary', was: staff },
  { method: 'GET', route: '/api/tickets/:id', url: (i) => `/api/tickets/${i.ticketId}`, was: staff },
  { method: 'GET', route: '/api/tickets/:id/interventions', url: (i) => `/api/tickets/${i.ticketId}/interventions`, was: staff },
  { method: 'GET', route: '/api/tickets/:id/history', url: (i) => `/api/tickets/${i.ticketId}/history`, was: staff },
  // Added with issue 18 (the detail's report e-mails): who may read a ticket may read its reports.
  { method: 'GET', route: '/api/tickets/:id/reports', url: (i) => `/api/tickets/${i.closedTicketId}/reports`, was: staff },
  {
    method: 'POST',
    route: '/api/tickets/manual/ticket-create',
    url: () => '/api/tickets/manual/ticket-create',
    body: (i) => ({ installation_id: i.installationId, nom: 'Matrice', prenom: 'Test', email: 'matrice@test.fr', telephone: '0600000000', probleme: 'Essai des droits' }),
    was: 'AaTtS',
  },
  { method: 'PATCH', route: '/api/tickets/:id', url: (i) => `/api/tickets/${i.ticketId}`, body: (i) => ({ statut: 'en_cours', technicien_id: i.technicienId }), was: staff },
  { method: 'PATCH', route: '/api/tickets/:id/close', url: (i) => `/api/tickets/${i.closedTicketId}/close`, body: visit, was: staff },
  { method: 'POST', route: '/api/tickets/:id/intervention', url: (i) => `/api/tickets/${i.closedTicketId}/intervention`, body: visit, was: staff },
  // Added with issue 32 (« Je suis sur site »): who may record a visit may record its arrival; on a closed ticket, 409 once past the door.
  { method: 'POST', route: '/api/tickets/:id/sur-site', url: (i) => `/api/tickets/${i.closedTicketId}/sur-site`, was: staff },
  { method: 'PATCH', route: '/api/tickets/:id/interventions/:interventionId', url: (i) => `/api/tickets/${i.ticketId}/interventions/${unknown}`, body: () => ({ nom_rapport: 'rapport.pdf' }), was: staff },
  { method: 'PATCH', route: '/api/tickets/:id/update', url: (i) => `/api/tickets/${i.closedTicketId}/update`, body: () => ({ numero_devis: 'D-1' }), was: staff },
  // Clients, sites, installations, contacts (management §6: clients.edit to change; reading for the ticket screens)
  { method: 'GET', route: '/api/clients', url: () => '/api/clients', was: staff },
  { method: 'GET', route: '/api/clients/by-agence/:id', url: (i) => `/api/clients/by-agence/${i.agenceId}`, was: 'AaTtS' },
  { method: 'GET', route: '/api/clients/:id/sites', url: (i) => `/api/clients/${i.clientId}/sites`, was: staff },
  { method: 'POST', route: '/api/clients', url: () => '/api/clients', body: (i) => ({ ...i.client, id: undefined, agence_nom: undefined, nom: `Client ${randomUUID().slice(0, 6)}` }), was: 'Aa' },
  { method: 'PUT', route: '/api/clients/:id', url: (i) => `/api/clients/${i.clientId}`, body: (i) => ({ ...i.client, id: undefined, agence_nom: undefined }), was: 'Aa' },
  { method: 'DELETE', route: '/api/clients/:id', url: () => `/api/clients/${unknown}`, was: 'Aa' },
  { method: 'GET', route: '/api/sites/client/:id', url: (i) => `/api/sites/client/${i.clientId}`, was: 'AaTtS' },
  { method: 'GET', route: '/api/sites/:id/installations', url: (i) => `/api/sites/${i.siteId}/installations`, was: 'AaTtS' },
  { method: 'POST', route: '/api/sites', url: () => '/api/sites', body: (i) => ({ ...i.site, id: undefined, installations: undefined, nom: `Site ${randomUUID().slice(0, 6)}` }), was: 'Aa' },
  { method: 'PUT', route: '/api/sites/:id', url: (i) => `/api/sites/${i.siteId}`, body: (i) => ({ ...i.site, id: undefined, installations: undefined }), was: 'Aa' },
  { method: 'DELETE', route: '/api/sites/:id', url: () => `/api/sites/${unknown}`, was: 'Aa' },
  { method: 'POST', route: '/api/installations', url: () => '/api/installations', body: (i) => ({ ...i.installation, id: undefined, metier_nom: undefined, nom: `Inst ${randomUUID().slice(0, 6)}` }), was: 'Aa' },
  { method: 'PUT', route: '/api/installations/:id', url: (i) => `/api/installations/${i.installationId}`, body: (i) => ({ ...i.installation, id: undefined, metier_nom: undefined }), was: 'Aa' },
  { method: 'DELETE', route: '/api/installations/:id', url: () => `/api/installations/${unknown}`, was: 'Aa' },
  { method: 'GET', route: '/api/interlocuteurs/installation/:id', url: (i) => `/api/interlocuteurs/installation/${i.installationId}`, was: 'AaTtS' },
  { method: 'GET', route: '/api/interlocuteurs/site/:id', url: (i) => `/api/interlocuteurs/site/${i.siteId}`, was: 'AaTtS' },
  { method: 'GET', route: '/api/interlocuteurs/site-only/:id', url: (i) => `/api/interlocuteurs/site-only/${i.siteId}`, was: 'AaTtS' },
  { method: 'GET', route: '/api/interlocuteurs/client/:id', url: (i) => `/api/interlocuteurs/client/${i.clientId}`, was: 'AaTtS' },
  { method: 'POST', route: '/api/interlocuteurs', url: () => '/api/interlocuteurs', body: (i) => ({ nom: 'Durand', prenom: 'Anne', client_id: i.clientId, affect_sites: [], affect_installations: [] }), was: 'Aa' },
  { method: 'PUT', route: '/api/interlocuteurs/:id', url: () => `/api/interlocuteurs/${unknown}`, body: (i) => ({ nom: 'Durand', prenom: 'Anne', client_id: i.clientId, affect_sites: [], affect_installations: [] }), was: 'Aa' },
  { method: 'DELETE', route: '/api/interlocuteurs/:id', url: () => `/api/interlocuteurs/${unknown}`, was: 'Aa' },
  // QR codes (qrcodes.manage for the QR screen; clients.edit to assign)
  { method: 'GET', route: '/api/qrcodes/by-installation/:id', url: (i) => `/api/qrcodes/by-installation/${i.installationId}`, was: 'AaT' },
  { method: 'GET', route: '/api/qrcodes/unused', url: () => '/api/qrcodes/unused', was: 'Aa' },
  { method: 'GET', route: '/api/qrcodes/unused-count', url: () => '/api/qrcodes/unused-count', was: 'Aa' },
  { method: 'GET', route: '/api/qrcodes/:id/image.svg', url: (i) => `/api/qrcodes/${i.qrCodeId}/image.svg`, was: 'AaT' },
  { method: 'POST', route: '/api/qrcodes/batch', url: () => '/api/qrcodes/batch', body: () => ({ count: 1 }), was: 'Aa' },
  { method: 'POST', route: '/api/qrcodes/export', url: () => '/api/qrcodes/export', was: 'Aa' },
  { method: 'POST', route: '/api/qrcodes/:id/assign', url: () => `/api/qrcodes/${unknown}/assign`, body: (i) => ({ installation_id: i.installationId }), was: 'Aa' },
  { method: 'DELETE', route: '/api/qrcodes/:id/assign', url: () => `/api/qrcodes/${unknown}/assign`, was: 'Aa' },
  // Agencies (agences.view/edit or admin_plus; creating: admin_plus — see docs/api-additions.md)
  { method: 'GET', route: '/api/agences', url: () => '/api/agences', was: 'AaS' },
  // A télésurveillance account may read the hours of the agencies it works for.
  { method: 'GET', route: '/api/agences/:id/horaires', url: (i) => `/api/agences/${i.agenceId}/horaires`, was: 'AaS' },
  { method: 'POST', route: '/api/agences', url: () => '/api/agences', body: (i) => ({ ...i.agence, id: undefined, nom: `Agence ${randomUUID().slice(0, 6)}` }), was: 'A' },
  { method: 'PUT', route: '/api/agences/:id', url: (i) => `/api/agences/${i.agenceId}`, body: (i) => ({ ...i.agence, id: undefined }), was: 'Aa' },
  { method: 'PUT', route: '/api/agences/:id/horaires', url: (i) => `/api/agences/${i.agenceId}/horaires`, body: () => [1, 2, 3, 4, 5].map((d) => ({ day_of_week: d, morning_open: '08:00', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '17:30' })), was: 'Aa' },
  // agences.edit allows deleting (its own agency only: scope gives 404 elsewhere).
  { method: 'DELETE', route: '/api/agences/:id', url: () => `/api/agences/${unknown}`, was: 'Aa' },
  // Users (users.view / users.edit / users.permissions or admin_plus; pickers for every staff user)
  { method: 'GET', route: '/api/utilisateurs', url: () => '/api/utilisateurs', was: 'AaTtS' },
  { method: 'GET', route: '/api/utilisateurs/agences', url: () => '/api/utilisateurs/agences', was: 'Aa' },
  { method: 'GET', route: '/api/utilisateurs/permissions-catalog', url: () => '/api/utilisateurs/permissions-catalog', was: 'Aa' },
  { method: 'GET', route: '/api/utilisateurs/:id/permissions', url: (i) => `/api/utilisateurs/${i.technicienId}/permissions`, was: 'Aa' },
  { method: 'POST', route: '/api/utilisateurs', url: () => '/api/utilisateurs', body: (i) => ({ nom: 'Neuf', prenom: 'Tech', email: `neuf.${randomUUID().slice(0, 8)}@test.fr`, telephone: '0600000000', role: 'technicien', agence_id: i.agenceId, motdepasse: 'Secret-2026!' }), was: 'Aa' },
  { method: 'PUT', route: '/api/utilisateurs/:id', url: () => `/api/utilisateurs/${unknown}`, body: (i) => ({ nom: 'X', prenom: 'Y', email: 'x.y@test.fr', telephone: '0600000000', role: 'technicien', agence_id: i.agenceId }), was: 'Aa' },
  { method: 'PUT', route: '/api/utilisateurs/:id/permissions', url: () => `/api/utilisateurs/${unknown}/permissions`, body: () => ({ permissions: ['tickets.devis'] }), was: 'Aa' },
  { method: 'DELETE', route: '/api/utilisateurs/:id', url: () => `/api/utilisateurs/${unknown}`, was: 'Aa' },
  { method: 'POST', route: '/api/utilisateurs/change-password', url: () => '/api/utilisateurs/change-password', body: () => ({ oldPassword: 'not-the-password-1!', newPassword: 'Nouveau-2026!' }), was: 'AaTtS' },
  // Télésurveillance accounts (telesurveillance.edit: admin_plus by default)
  { method: 'GET', route: '/api/telesurv', url: () => '/api/telesurv', was: 'A' },
  { method: 'POST', route: '/api/telesurv', url: () => '/api/telesurv', body: () => ({ nom: 'Veille', email: `veille.${randomUUID().slice(0, 8)}@test.fr`, telephone: '', motdepasse: 'Secret-2026!' }), was: 'A' },
  { method: 'PUT', route: '/api/telesurv/:id', url: () => `/api/telesurv/${unknown}`, body: () => ({ nom: 'Veille', email: 'veille@test.fr', telephone: '' }), was: 'A' },
  { method: 'DELETE', route: '/api/telesurv/:id', url: () => `/api/telesurv/${unknown}`, was: 'A' },
  { method: 'GET', route: '/api/telesurv/:id/agences', url: (i) => `/api/telesurv/${i.telesurvId}/agences`, was: 'A' },
  { method: 'PUT', route: '/api/telesurv/:id/agences', url: () => `/api/telesurv/${unknown}/agences`, body: (i) => ({ agences: [i.agenceId] }), was: 'A' },
  { method: 'GET', route: '/api/telesurv/me/agences', url: () => '/api/telesurv/me/agences', was: 'S' },
  // Métiers (metier.edit: admin_plus by default; the list is a picker for everyone)
  { method: 'GET', route: '/api/metiers', url: () => '/api/metiers', was: 'AaTtS' },
  { method: 'POST', route: '/api/metiers', url: () => '/api/metiers', body: () => ({ nom: `Métier ${randomUUID().slice(0, 6)}`, ordre: null, delai_inter: 24, HO_stats: 0 }), was: 'A' },
  { method: 'PUT', route: '/api/metiers/:id', url: (i) => `/api/metiers/${i.metierId}`, body: (i) => ({ ...i.metier, id: undefined }), was: 'A' },
  { method: 'PUT', route: '/api/metiers/reorder', url: () => '/api/metiers/reorder', body: (i) => [{ id: i.metierId, ordre: i.metier.ordre }], was: 'A' },
  { method: 'DELETE', route: '/api/metiers/:id', url: () => `/api/metiers/${unknown}`, was: 'A' },
  // Templates (templates.view / templates.manage)
  { method: 'GET', route: '/api/templates', url: () => '/api/templates', was: 'Aa' },
  { method: 'POST', route: '/api/templates', url: () => '/api/templates', body: () => ({ name: 'Essai', content_html: '<p>{{ticket.num_chrono}}</p>', css: '' }), was: 'A' },
  { method: 'PUT', route: '/api/templates/:id', url: () => `/api/templates/${unknown}`, body: () => ({ name: 'Essai', content_html: '<p>x</p>', css: '' }), was: 'A' },
  { method: 'DELETE', route: '/api/templates/:id', url: () => `/api/templates/${unknown}`, was: 'A' },
  // Renders the editor's content (a test stub stands in for the workers' queue).
  { method: 'POST', route: '/api/templates/preview', url: () => '/api/templates/preview', body: () => ({ content_html: '<p>{{ticket.num_chrono}}</p>' }), was: 'Aa' },
  // Reports (tickets.devis) and worker-made exports (stats or QR permissions); unknown ids, so nothing waits for a worker.
  { method: 'POST', route: '/api/reports/:file', url: () => `/api/reports/${unknown}.pdf`, body: () => ({}), was: 'AaTt' },
  {
    method: 'POST',
    route: '/api/reports/send-email',
    url: () => '/api/reports/send-email',
    body: () => ({ recipients: [{ email: 'a@b.fr' }], ticketNumber: 'X', ticketInfo: { site: 'S', installation: 'I' }, downloadUrl: '/api/reports/download/rapport-x-00000000.pdf' }),
    was: 'AaTt',
  },
  // New in issue 17 (a report link without the session token): every staff role, like the download itself.
  { method: 'GET', route: '/api/reports/download/:filename/link', url: () => '/api/reports/download/rapport-LYO-2026-00001-00000000.pdf/link', was: 'AaTt' },
  { method: 'POST', route: '/api/exports', url: () => '/api/exports', body: () => ({ kind: 'stats-tickets' }), was: 'AaT' },
  { method: 'GET', route: '/api/exports/:id', url: () => `/api/exports/${unknown}`, was: 'AaT' },
  // Statistics (tickets.stats or tickets.stats-global)
  { method: 'GET', route: '/api/stats/tickets', url: () => '/api/stats/tickets', was: 'AaT' },
  { method: 'GET', route: '/api/stats/tickets.csv', url: () => '/api/stats/tickets.csv', was: 'AaT' },
];

/** Runs the demo seed and collects the ids and tokens the cases use. */
export async function seedRouteCaseWorld(h: ApiHarness): Promise<Ids & { users: Record<Role, { id: string; agence_id: string | null; permissions: string[] }> }> {
  await runDemoSeed(h.app, h.deps, demoSeedSteps);
  const tokens = {} as Record<Role, string>;
  const users = {} as Record<Role, { id: string; agence_id: string | null; permissions: string[] }>;
  for (const role of ROLES) {
    const res = await h.request(null, { method: 'POST', url: '/api/login', payload: { email: demoEmail(role), motdepasse: DEMO_PASSWORD } });
    tokens[role] = res.json().token;
    users[role] = res.json().user;
  }
  const as = async (role: Role, url: string) => (await h.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[role]}` } })).json();
  const agenceId = users.admin.agence_id!;
  const clients = (await as('admin', '/api/clients')) as Record<string, unknown>[];
  const client = clients[0]!;
  const sites = (await as('admin', `/api/clients/${client.id}/sites`)) as (Record<string, unknown> & { installations: Record<string, unknown>[] })[];
  const site = sites.find((s) => s.installations.length > 0)!;
  const installation = site.installations[0]!;
  const contacts = (await as('admin', `/api/interlocuteurs/client/${client.id}`)) as { id: string }[];
  const qr = (await as('admin', `/api/qrcodes/unused`)) as { items: { id: string }[] };
  const metiers = (await as('admin', '/api/metiers')) as Record<string, unknown>[];
  const templates = (await as('admin', '/api/templates')) as { id: string }[];
  const open = ((await as('admin', '/api/tickets?statut=ouvert')) as { tickets: { id: string }[] }).tickets;
  const closed = (await as('admin', '/api/tickets/clos')) as { id: string }[] | { tickets: { id: string }[] };
  const closedList = Array.isArray(closed) ? closed : closed.tickets;
  const telesurv = (await as('admin_plus', '/api/telesurv')) as { id: string }[];
  const agences = (await as('admin', '/api/agences')) as Record<string, unknown>[];
  const ids: Ids = {
    agenceId,
    clientId: String(client.id),
    siteId: String(site.id),
    installationId: String(installation.id),
    interlocuteurId: contacts[0]?.id ?? unknown,
    qrCodeId: qr.items[0]?.id ?? unknown,
    metierId: String(metiers[0]!.id),
    templateId: templates[0]?.id ?? unknown,
    ticketId: open[0]!.id,
    closedTicketId: closedList[0]!.id,
    technicienId: users.technicien.id,
    telesurvId: telesurv[0]!.id,
    tokens,
    agence: agences.find((a) => a.id === agenceId)!,
    client,
    site,
    installation,
    metier: metiers[0]!,
  };
  return { ...ids, users };
}
