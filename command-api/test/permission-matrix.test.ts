import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@fsm/contracts';
import { DEMO_PASSWORD, demoEmail, runDemoSeed } from '../src/seed/demo-seed.js';
import { demoSeedSteps } from '../src/seed/demo-steps.js';
import { DEMO_SIGNATURE_DATA_URL } from '../src/seed/ticket-demo-step.js';
import { createApiHarness, type ApiHarness } from '../src/test-support/api-harness.js';

/*
 * Every route × every role (with the role's default permissions, as the demo
 * seed creates them) → allowed or 403; and 401 without a token. "Allowed"
 * means the permission check let the request through: the answer may still be
 * 400/404/409 for the request itself. Requests are built so an allowed role
 * changes nothing that matters to the next one (same values, unknown ids).
 */

const ROLES: Role[] = ['admin_plus', 'admin', 'technicien_plus', 'technicien', 'telesurveillance'];
type Who = 'A' | 'a' | 'T' | 't' | 'S';
const ROLE_OF: Record<Who, Role> = { A: 'admin_plus', a: 'admin', T: 'technicien_plus', t: 'technicien', S: 'telesurveillance' };

interface Ids {
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

interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  route: string;
  url: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  allowed: string;
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

const CASES: Case[] = [
  // Tickets (spec tickets §6: télésurveillance only creates)
  { method: 'GET', route: '/api/tickets', url: () => '/api/tickets', allowed: staff },
  { method: 'GET', route: '/api/tickets/clos', url: () => '/api/tickets/clos', allowed: staff },
  { method: 'GET', route: '/api/tickets/summary', url: () => '/api/tickets/summary', allowed: staff },
  { method: 'GET', route: '/api/tickets/:id', url: (i) => `/api/tickets/${i.ticketId}`, allowed: staff },
  { method: 'GET', route: '/api/tickets/:id/interventions', url: (i) => `/api/tickets/${i.ticketId}/interventions`, allowed: staff },
  { method: 'GET', route: '/api/tickets/:id/history', url: (i) => `/api/tickets/${i.ticketId}/history`, allowed: staff },
  {
    method: 'POST',
    route: '/api/tickets/manual/ticket-create',
    url: () => '/api/tickets/manual/ticket-create',
    body: (i) => ({ installation_id: i.installationId, nom: 'Matrice', prenom: 'Test', email: 'matrice@test.fr', telephone: '0600000000', probleme: 'Essai des droits' }),
    allowed: 'AaTtS',
  },
  { method: 'PATCH', route: '/api/tickets/:id', url: (i) => `/api/tickets/${i.ticketId}`, body: (i) => ({ statut: 'en_cours', technicien_id: i.technicienId }), allowed: staff },
  { method: 'PATCH', route: '/api/tickets/:id/close', url: (i) => `/api/tickets/${i.closedTicketId}/close`, body: visit, allowed: staff },
  { method: 'POST', route: '/api/tickets/:id/intervention', url: (i) => `/api/tickets/${i.closedTicketId}/intervention`, body: visit, allowed: staff },
  { method: 'PATCH', route: '/api/tickets/:id/interventions/:interventionId', url: (i) => `/api/tickets/${i.ticketId}/interventions/${unknown}`, body: () => ({ nom_rapport: 'rapport.pdf' }), allowed: staff },
  { method: 'PATCH', route: '/api/tickets/:id/update', url: (i) => `/api/tickets/${i.closedTicketId}/update`, body: () => ({ numero_devis: 'D-1' }), allowed: staff },
  // Clients, sites, installations, contacts (management §6: clients.edit to change; reading for the ticket screens)
  { method: 'GET', route: '/api/clients', url: () => '/api/clients', allowed: staff },
  { method: 'GET', route: '/api/clients/by-agence/:id', url: (i) => `/api/clients/by-agence/${i.agenceId}`, allowed: 'AaTtS' },
  { method: 'GET', route: '/api/clients/:id/sites', url: (i) => `/api/clients/${i.clientId}/sites`, allowed: staff },
  { method: 'POST', route: '/api/clients', url: () => '/api/clients', body: (i) => ({ ...i.client, id: undefined, agence_nom: undefined, nom: `Client ${randomUUID().slice(0, 6)}` }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/clients/:id', url: (i) => `/api/clients/${i.clientId}`, body: (i) => ({ ...i.client, id: undefined, agence_nom: undefined }), allowed: 'Aa' },
  { method: 'DELETE', route: '/api/clients/:id', url: () => `/api/clients/${unknown}`, allowed: 'Aa' },
  { method: 'GET', route: '/api/sites/client/:id', url: (i) => `/api/sites/client/${i.clientId}`, allowed: 'AaTtS' },
  { method: 'GET', route: '/api/sites/:id/installations', url: (i) => `/api/sites/${i.siteId}/installations`, allowed: 'AaTtS' },
  { method: 'POST', route: '/api/sites', url: () => '/api/sites', body: (i) => ({ ...i.site, id: undefined, installations: undefined, nom: `Site ${randomUUID().slice(0, 6)}` }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/sites/:id', url: (i) => `/api/sites/${i.siteId}`, body: (i) => ({ ...i.site, id: undefined, installations: undefined }), allowed: 'Aa' },
  { method: 'DELETE', route: '/api/sites/:id', url: () => `/api/sites/${unknown}`, allowed: 'Aa' },
  { method: 'POST', route: '/api/installations', url: () => '/api/installations', body: (i) => ({ ...i.installation, id: undefined, metier_nom: undefined, nom: `Inst ${randomUUID().slice(0, 6)}` }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/installations/:id', url: (i) => `/api/installations/${i.installationId}`, body: (i) => ({ ...i.installation, id: undefined, metier_nom: undefined }), allowed: 'Aa' },
  { method: 'DELETE', route: '/api/installations/:id', url: () => `/api/installations/${unknown}`, allowed: 'Aa' },
  { method: 'GET', route: '/api/interlocuteurs/installation/:id', url: (i) => `/api/interlocuteurs/installation/${i.installationId}`, allowed: 'AaTtS' },
  { method: 'GET', route: '/api/interlocuteurs/site/:id', url: (i) => `/api/interlocuteurs/site/${i.siteId}`, allowed: 'AaTtS' },
  { method: 'GET', route: '/api/interlocuteurs/site-only/:id', url: (i) => `/api/interlocuteurs/site-only/${i.siteId}`, allowed: 'AaTtS' },
  { method: 'GET', route: '/api/interlocuteurs/client/:id', url: (i) => `/api/interlocuteurs/client/${i.clientId}`, allowed: 'AaTtS' },
  { method: 'POST', route: '/api/interlocuteurs', url: () => '/api/interlocuteurs', body: (i) => ({ nom: 'Durand', prenom: 'Anne', client_id: i.clientId, affect_sites: [], affect_installations: [] }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/interlocuteurs/:id', url: () => `/api/interlocuteurs/${unknown}`, body: (i) => ({ nom: 'Durand', prenom: 'Anne', client_id: i.clientId, affect_sites: [], affect_installations: [] }), allowed: 'Aa' },
  { method: 'DELETE', route: '/api/interlocuteurs/:id', url: () => `/api/interlocuteurs/${unknown}`, allowed: 'Aa' },
  // QR codes (qrcodes.manage for the QR screen; clients.edit to assign)
  { method: 'GET', route: '/api/qrcodes/by-installation/:id', url: (i) => `/api/qrcodes/by-installation/${i.installationId}`, allowed: 'AaT' },
  { method: 'GET', route: '/api/qrcodes/unused', url: () => '/api/qrcodes/unused', allowed: 'Aa' },
  { method: 'GET', route: '/api/qrcodes/unused-count', url: () => '/api/qrcodes/unused-count', allowed: 'Aa' },
  { method: 'GET', route: '/api/qrcodes/:id/image.svg', url: (i) => `/api/qrcodes/${i.qrCodeId}/image.svg`, allowed: 'AaT' },
  { method: 'POST', route: '/api/qrcodes/batch', url: () => '/api/qrcodes/batch', body: () => ({ count: 1 }), allowed: 'Aa' },
  { method: 'POST', route: '/api/qrcodes/export', url: () => '/api/qrcodes/export', allowed: 'Aa' },
  { method: 'POST', route: '/api/qrcodes/:id/assign', url: () => `/api/qrcodes/${unknown}/assign`, body: (i) => ({ installation_id: i.installationId }), allowed: 'Aa' },
  { method: 'DELETE', route: '/api/qrcodes/:id/assign', url: () => `/api/qrcodes/${unknown}/assign`, allowed: 'Aa' },
  // Agencies (agences.view/edit or admin_plus; creating: admin_plus — see docs/api-additions.md)
  { method: 'GET', route: '/api/agences', url: () => '/api/agences', allowed: 'AaS' },
  // A télésurveillance account may read the hours of the agencies it works for.
  { method: 'GET', route: '/api/agences/:id/horaires', url: (i) => `/api/agences/${i.agenceId}/horaires`, allowed: 'AaS' },
  { method: 'POST', route: '/api/agences', url: () => '/api/agences', body: (i) => ({ ...i.agence, id: undefined, nom: `Agence ${randomUUID().slice(0, 6)}` }), allowed: 'A' },
  { method: 'PUT', route: '/api/agences/:id', url: (i) => `/api/agences/${i.agenceId}`, body: (i) => ({ ...i.agence, id: undefined }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/agences/:id/horaires', url: (i) => `/api/agences/${i.agenceId}/horaires`, body: () => [1, 2, 3, 4, 5].map((d) => ({ day_of_week: d, morning_open: '08:00', morning_close: '12:00', afternoon_open: '13:30', afternoon_close: '17:30' })), allowed: 'Aa' },
  // agences.edit allows deleting (its own agency only: scope gives 404 elsewhere).
  { method: 'DELETE', route: '/api/agences/:id', url: () => `/api/agences/${unknown}`, allowed: 'Aa' },
  // Users (users.view / users.edit / users.permissions or admin_plus; pickers for every staff user)
  { method: 'GET', route: '/api/utilisateurs', url: () => '/api/utilisateurs', allowed: 'AaTtS' },
  { method: 'GET', route: '/api/utilisateurs/agences', url: () => '/api/utilisateurs/agences', allowed: 'Aa' },
  { method: 'GET', route: '/api/utilisateurs/permissions-catalog', url: () => '/api/utilisateurs/permissions-catalog', allowed: 'Aa' },
  { method: 'GET', route: '/api/utilisateurs/:id/permissions', url: (i) => `/api/utilisateurs/${i.technicienId}/permissions`, allowed: 'Aa' },
  { method: 'POST', route: '/api/utilisateurs', url: () => '/api/utilisateurs', body: (i) => ({ nom: 'Neuf', prenom: 'Tech', email: `neuf.${randomUUID().slice(0, 8)}@test.fr`, telephone: '0600000000', role: 'technicien', agence_id: i.agenceId, motdepasse: 'Secret-2026!' }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/utilisateurs/:id', url: () => `/api/utilisateurs/${unknown}`, body: (i) => ({ nom: 'X', prenom: 'Y', email: 'x.y@test.fr', telephone: '0600000000', role: 'technicien', agence_id: i.agenceId }), allowed: 'Aa' },
  { method: 'PUT', route: '/api/utilisateurs/:id/permissions', url: () => `/api/utilisateurs/${unknown}/permissions`, body: () => ({ permissions: ['tickets.devis'] }), allowed: 'Aa' },
  { method: 'DELETE', route: '/api/utilisateurs/:id', url: () => `/api/utilisateurs/${unknown}`, allowed: 'Aa' },
  { method: 'POST', route: '/api/utilisateurs/change-password', url: () => '/api/utilisateurs/change-password', body: () => ({ oldPassword: 'not-the-password-1!', newPassword: 'Nouveau-2026!' }), allowed: 'AaTtS' },
  // Télésurveillance accounts (telesurveillance.edit: admin_plus by default)
  { method: 'GET', route: '/api/telesurv', url: () => '/api/telesurv', allowed: 'A' },
  { method: 'POST', route: '/api/telesurv', url: () => '/api/telesurv', body: () => ({ nom: 'Veille', email: `veille.${randomUUID().slice(0, 8)}@test.fr`, telephone: '', motdepasse: 'Secret-2026!' }), allowed: 'A' },
  { method: 'PUT', route: '/api/telesurv/:id', url: () => `/api/telesurv/${unknown}`, body: () => ({ nom: 'Veille', email: 'veille@test.fr', telephone: '' }), allowed: 'A' },
  { method: 'DELETE', route: '/api/telesurv/:id', url: () => `/api/telesurv/${unknown}`, allowed: 'A' },
  { method: 'GET', route: '/api/telesurv/:id/agences', url: (i) => `/api/telesurv/${i.telesurvId}/agences`, allowed: 'A' },
  { method: 'PUT', route: '/api/telesurv/:id/agences', url: () => `/api/telesurv/${unknown}/agences`, body: (i) => ({ agences: [i.agenceId] }), allowed: 'A' },
  { method: 'GET', route: '/api/telesurv/me/agences', url: () => '/api/telesurv/me/agences', allowed: 'S' },
  // Métiers (metier.edit: admin_plus by default; the list is a picker for everyone)
  { method: 'GET', route: '/api/metiers', url: () => '/api/metiers', allowed: 'AaTtS' },
  { method: 'POST', route: '/api/metiers', url: () => '/api/metiers', body: () => ({ nom: `Métier ${randomUUID().slice(0, 6)}`, ordre: null, delai_inter: 24, HO_stats: 0 }), allowed: 'A' },
  { method: 'PUT', route: '/api/metiers/:id', url: (i) => `/api/metiers/${i.metierId}`, body: (i) => ({ ...i.metier, id: undefined }), allowed: 'A' },
  { method: 'PUT', route: '/api/metiers/reorder', url: () => '/api/metiers/reorder', body: (i) => [{ id: i.metierId, ordre: i.metier.ordre }], allowed: 'A' },
  { method: 'DELETE', route: '/api/metiers/:id', url: () => `/api/metiers/${unknown}`, allowed: 'A' },
  // Templates (templates.view / templates.manage)
  { method: 'GET', route: '/api/templates', url: () => '/api/templates', allowed: 'Aa' },
  { method: 'POST', route: '/api/templates', url: () => '/api/templates', body: () => ({ name: 'Essai', content_html: '<p>{{ticket.num_chrono}}</p>', css: '' }), allowed: 'A' },
  { method: 'PUT', route: '/api/templates/:id', url: () => `/api/templates/${unknown}`, body: () => ({ name: 'Essai', content_html: '<p>x</p>', css: '' }), allowed: 'A' },
  { method: 'DELETE', route: '/api/templates/:id', url: () => `/api/templates/${unknown}`, allowed: 'A' },
  // Statistics (tickets.stats or tickets.stats-global)
  { method: 'GET', route: '/api/stats/tickets', url: () => '/api/stats/tickets', allowed: 'AaT' },
  { method: 'GET', route: '/api/stats/tickets.csv', url: () => '/api/stats/tickets.csv', allowed: 'AaT' },
];

/** Routes outside the matrix, and why. */
const NOT_IN_MATRIX: Record<string, string> = {
  'POST /api/login': 'public',
  'GET /api/health': 'public (load balancers)',
  'GET /api/files/:ref': 'public capability URL (content hash)',
  'GET /api/public/captcha': 'public',
  'POST /api/public/ticket-create': 'public (QR key + captcha)',
  'GET /ws': 'WebSocket, token in the query (tested in health-and-live)',
  'GET /api/reports/download/:filename': 'token in the query (tested in the reports tests)',
  'POST /api/reports/:file': 'reports: tickets.devis (tested in the reports tests)',
  'POST /api/reports/send-email': 'reports: tickets.devis (tested in the reports tests)',
  'POST /api/exports': 'exports: tickets.stats(-global) / qrcodes.manage (tested in exports-api)',
  'GET /api/exports/:id': 'exports: same permission and scope as the export (tested in exports-api)',
  'GET /api/exports/:id/download': 'token in the query (tested in exports-api)',
};

let h: ApiHarness;
let ids: Ids;

beforeAll(async () => {
  h = await createApiHarness('api_permission_matrix');
  await runDemoSeed(h.app, h.deps, demoSeedSteps);
  const tokens = {} as Record<Role, string>;
  const users = {} as Record<Role, { id: string; agence_id: string | null }>;
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
  ids = {
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
}, 180_000);

afterAll(async () => h?.close());

describe('permission matrix', () => {
  it('covers every registered route', () => {
    const covered = new Set(CASES.map((c) => `${c.method} ${c.route}`));
    const missing = h.app.routeCatalogue
      .map((r) => `${r.method} ${r.url}`)
      // The OpenAPI reference (/api/docs…) is public documentation.
      .filter((key) => !covered.has(key) && !(key in NOT_IN_MATRIX) && !/^GET \/api\/docs/.test(key));
    expect(missing).toEqual([]);
  });

  it('answers 401 without a token on every signed-in route', async () => {
    for (const c of CASES) {
      const res = await h.app.inject({ method: c.method, url: c.url(ids), ...(c.body ? { payload: c.body(ids) as object } : {}) });
      expect(res.statusCode, `${c.method} ${c.route}`).toBe(401);
    }
  });

  it.each(Object.entries(ROLE_OF))('lets %s (%s) through exactly where its permissions allow', async (who, role) => {
    const wrong: string[] = [];
    for (const c of CASES) {
      const res = await h.app.inject({
        method: c.method,
        url: c.url(ids),
        headers: { authorization: `Bearer ${ids.tokens[role]}` },
        ...(c.body ? { payload: c.body(ids) as object } : {}),
      });
      const allowed = c.allowed.includes(who);
      const got = res.statusCode;
      const ok = allowed ? got !== 401 && got !== 403 && got < 500 : got === 403;
      if (!ok) wrong.push(`${c.method} ${c.route}: expected ${allowed ? 'allowed' : '403'}, got ${got} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});
