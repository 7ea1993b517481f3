import type { Agence, Client, Installation, Interlocuteur, Metier, QrCode, SiteWithInstallations, TelesurvAccount, Template, User } from '@fsm/contracts';

/** Fixed UUIDs for the management screens' tests (the contracts schemas check GUIDs). */
export const MIDS = {
  agence: 'a0000000-0000-4000-8000-000000000001',
  agence2: 'a0000000-0000-4000-8000-000000000002',
  client: 'c0000000-0000-4000-8000-000000000001',
  client2: 'c0000000-0000-4000-8000-000000000002',
  site: 'b0000000-0000-4000-8000-000000000001',
  site2: 'b0000000-0000-4000-8000-000000000002',
  installation: 'd0000000-0000-4000-8000-000000000001',
  installation2: 'd0000000-0000-4000-8000-000000000002',
  metier: 'e0000000-0000-4000-8000-000000000001',
  metier2: 'e0000000-0000-4000-8000-000000000002',
  metier3: 'e0000000-0000-4000-8000-000000000003',
  contact: 'f0000000-0000-4000-8000-000000000001',
  qr: '90000000-0000-4000-8000-000000000001',
  qr2: '90000000-0000-4000-8000-000000000002',
  qr3: '90000000-0000-4000-8000-000000000003',
  user: '80000000-0000-4000-8000-000000000001',
  user2: '80000000-0000-4000-8000-000000000002',
  telesurv: '70000000-0000-4000-8000-000000000001',
  template: '60000000-0000-4000-8000-000000000001',
  template2: '60000000-0000-4000-8000-000000000002',
} as const;

/** n-th generated UUID of a family, for long lists. */
export const nthId = (prefix: string, n: number) => `${prefix}0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function makeAgence(overrides: Partial<Agence> = {}): Agence {
  return { id: MIDS.agence, nom: 'Agence Lyon', adresse: '5 quai Rambaud', cp_postal: '69002', ville: 'Lyon', telephone: '04 78 00 00 00', id_template: null, ...overrides };
}

export function makeClient(overrides: Partial<Client> = {}): Client {
  return { id: MIDS.client, nom: 'Hôpital Nord', adresse: '12 avenue des Tilleuls', ville: 'Lyon', code_postal: '69004', agence_id: MIDS.agence, agence_nom: 'Agence Lyon', ...overrides };
}

export function makeInstallation(overrides: Partial<Installation> = {}): Installation {
  return {
    id: MIDS.installation,
    nom: 'SSI catégorie A',
    id_metier: MIDS.metier,
    metier_nom: 'Sécurité incendie',
    description: 'Système de sécurité incendie',
    delai: 4,
    astreinte: 0,
    site_id: MIDS.site,
    ...overrides,
  };
}

export function makeSite(overrides: Partial<SiteWithInstallations> = {}): SiteWithInstallations {
  return { id: MIDS.site, nom: 'Bâtiment A', adresse: '1 rue de la Paix', ville: 'Lyon', code_postal: '69001', client_id: MIDS.client, installations: [makeInstallation()], ...overrides };
}

export function makeContact(overrides: Partial<Interlocuteur> = {}): Interlocuteur {
  return {
    id: MIDS.contact,
    client_id: MIDS.client,
    nom: 'Roux',
    prenom: 'Marc',
    fonction: 'Responsable sécurité',
    telephone: '06 00 00 00 01',
    email: 'marc.roux@example.fr',
    affectations: [{ niveau: 'site', niveau_id: MIDS.site }],
    nb_sites: 1,
    nb_installations: 0,
    ...overrides,
  };
}

export function makeMetier(overrides: Partial<Metier> = {}): Metier {
  return { id: MIDS.metier, nom: 'Sécurité incendie', ordre: 1, delai_inter: 4, HO_stats: 0, ...overrides };
}

export function makeQrCode(n: number): QrCode {
  const id = nthId('9', n);
  const qr_key = `cle${String(n).padStart(3, '0')}abcdefghijklmnopqrstuvwx`;
  return { id, qr_key, url: `https://tickets.example.fr/ticket?key=${qr_key}` };
}

export function makeStaffUser(overrides: Partial<User> = {}): User {
  return { id: MIDS.user, nom: 'Petit', prenom: 'Lucie', email: 'lucie.petit@example.fr', telephone: '06 11 11 11 11', role: 'technicien', agence_id: MIDS.agence, agence_nom: 'Agence Lyon', ...overrides };
}

export function makeTelesurvAccount(overrides: Partial<TelesurvAccount> = {}): TelesurvAccount {
  return { id: MIDS.telesurv, nom: 'Centrale Sud', email: 'centrale@example.fr', telephone: '04 00 00 00 00', agences_count: 2, ...overrides };
}

export function makeTemplate(overrides: Partial<Template> = {}): Template {
  return { id: MIDS.template, name: 'Rapport standard', content_html: '<h1>Rapport {{ticket.num_chrono}}</h1><p>Client : {{client.nom}}</p>', css: '', ...overrides };
}
