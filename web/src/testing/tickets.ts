import { ticketQuoteState, type Ticket } from '@fsm/contracts';
import type { InterventionView } from '../features/tickets/api/ticket-view';

/** Fixed UUIDs, so schema checks (GUID ids) pass and tests read well. */
export const IDS = {
  ticket: '11111111-1111-4111-8111-111111111111',
  ticket2: '11111111-1111-4111-8111-111111111112',
  ticket3: '11111111-1111-4111-8111-111111111113',
  client: '22222222-2222-4222-8222-222222222221',
  client2: '22222222-2222-4222-8222-222222222222',
  site: '33333333-3333-4333-8333-333333333331',
  site2: '33333333-3333-4333-8333-333333333332',
  installation: '44444444-4444-4444-8444-444444444441',
  installation2: '44444444-4444-4444-8444-444444444442',
  technicien: '55555555-5555-4555-8555-555555555551',
  technicien2: '55555555-5555-4555-8555-555555555552',
  agence: '66666666-6666-4666-8666-666666666661',
  agence2: '66666666-6666-4666-8666-666666666662',
  contact: '77777777-7777-4777-8777-777777777771',
  contact2: '77777777-7777-4777-8777-777777777772',
  contact3: '77777777-7777-4777-8777-777777777773',
  intervention: '88888888-8888-4888-8888-888888888881',
  intervention2: '88888888-8888-4888-8888-888888888882',
  metier: '99999999-9999-4999-8999-999999999991',
} as const;

export function makeTicket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    id: IDS.ticket,
    num_chrono: 'LYO-2026-0001',
    statut: 'ouvert',
    urgent: false,
    client_nom: 'Hôpital Nord',
    site_nom: 'Bâtiment A',
    site_adresse: '1 rue de la Paix',
    site_code_postal: '69001',
    site_ville: 'Lyon',
    installation_id: IDS.installation,
    installation_nom: 'SSI catégorie A',
    metier_nom: 'Sécurité incendie',
    probleme: 'Alarme en dérangement au niveau 2',
    astreinte: 0,
    photo: null,
    created_at: '2026-03-10T08:00:00.000Z',
    clos_at: null,
    arrive_at: null,
    echeance: '2026-03-10T12:00:00.000Z',
    delai: 4,
    minutes_ecoulees: 90,
    operateur_prenom: 'Paul',
    operateur_nom: 'Martin',
    technicien_prenom: null,
    technicien_nom: null,
    id_technicien: null,
    constat_tech: null,
    remarque_tech: null,
    etat_arrivee: null,
    etat_depart: null,
    nom_rapport: null,
    devis: 0,
    numero_devis: null,
    date_devis: null,
    date_enregistrement_devis: null,
    interventions_supp_count: 0,
    interventions_count: 0,
    prenom: 'Julie',
    nom: 'Bernard',
    email: 'julie.bernard@example.fr',
    telephone: '06 12 34 56 78',
    agence_id: IDS.agence,
    client_id: IDS.client,
    site_id: IDS.site,
    metier_id: IDS.metier,
    source: 'manual',
    temps_trajet: null,
    ...overrides,
  };
}

export function makeIntervention(overrides: Partial<InterventionView> = {}): InterventionView {
  return {
    id: IDS.intervention,
    ticket_id: IDS.ticket,
    created_at: '2026-03-10T10:00:00.000Z',
    arrive_at: '2026-03-10T09:30:00.000Z',
    clos_at: '2026-03-10T10:00:00.000Z',
    technicien_prenom: 'Lucie',
    technicien_nom: 'Petit',
    constat_tech: 'Détecteur encrassé remplacé',
    remarque_tech: null,
    etat_arrivee: 'En dérangement',
    etat_depart: 'Partiellement fonctionnel',
    temps_trajet: '00:30',
    devis: 0,
    nom_rapport: null,
    ordinal: 1,
    ...overrides,
  };
}

export const TECHNICIANS = [
  { id: IDS.technicien, prenom: 'Lucie', nom: 'Petit', role: 'technicien' },
  { id: IDS.technicien2, prenom: 'Marc', nom: 'Roux', role: 'technicien_plus' },
];

/**
 * What a ticket's detail screen reads (for mockApi): the ticket (or a handler
 * that answers it), its visits, its installation's contacts and the technicians.
 */
export function ticketDetailRoutes({ ticket, interventions = [], contacts }: { ticket: unknown; interventions?: unknown[]; contacts: unknown[] }) {
  return {
    'GET /api/tickets/:id': ticket,
    'GET /api/tickets/:id/interventions': interventions,
    'GET /api/interlocuteurs/installation/:id': contacts,
    'GET /api/utilisateurs': TECHNICIANS,
  };
}

/**
 * A fake `GET /api/tickets` or `/api/tickets/clos` that pages as the server
 * does (issue #19): `statut`, `urgent` and `devis_attente` filter, `limit`
 * and `cursor` page in the given order, the first page of the open list
 * counts the chips. The cursor is the next row's index.
 */
export function pagedTickets(all: readonly Ticket[]) {
  return (request: { query: URLSearchParams }) => {
    const q = request.query;
    const scoped = all.filter((t) => q.get('devis_attente') !== '1' || ticketQuoteState(t) === 'pending');
    // Late (issue 32): not closed and past the échéance, most late first, as the server does.
    const isLate = (t: Ticket) => t.statut !== 'clos' && t.echeance !== null && Date.parse(t.echeance) < Date.now();
    const filtered = scoped.filter((t) => (!q.get('statut') || t.statut === q.get('statut')) && (q.get('urgent') !== '1' || t.urgent));
    const rows = q.get('en_retard') === '1' ? filtered.filter(isLate).sort((a, b) => Date.parse(a.echeance!) - Date.parse(b.echeance!)) : filtered;
    const limit = Number(q.get('limit') ?? rows.length);
    const start = q.has('cursor') ? Number(q.get('cursor')!.slice(1)) : 0;
    const counts = {
      tout: scoped.length,
      urgents: scoped.filter((t) => t.urgent).length,
      ouverts: scoped.filter((t) => t.statut === 'ouvert').length,
      en_cours: scoped.filter((t) => t.statut === 'en_cours').length,
      interventions: scoped.filter((t) => t.statut === 'intervention').length,
      ...(q.get('avec_retard') === '1' ? { en_retard: scoped.filter(isLate).length } : {}),
    };
    return {
      tickets: rows.slice(start, start + limit),
      next_cursor: start + limit < rows.length ? `c${start + limit}` : null,
      total: rows.length,
      counts: start === 0 ? counts : null,
    };
  };
}
