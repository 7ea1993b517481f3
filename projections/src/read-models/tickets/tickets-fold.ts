import { ticketEventSchema, visitOpensQuote, type TicketEvent, type TicketVisitReport } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import { domainEvent } from '../domain-event.js';
import { foldAndWrite, type FoldedTable } from '../folded-rows.js';
import { ticketIdOf } from './ticket-stream.js';
import type { Replay } from '../../projector.js';

/** A row of rm.tickets as the fold sees it (instants as ISO-8601 text). */
interface TicketRow {
  [column: string]: string | number | boolean | null;
  id: string;
  num_chrono: string;
  source: string;
  statut: 'ouvert' | 'en_cours' | 'intervention' | 'clos';
  urgent: boolean;
  agence_id: string;
  client_id: string;
  client_nom: string;
  site_id: string;
  site_nom: string;
  site_adresse: string;
  site_code_postal: string;
  site_ville: string;
  installation_id: string;
  installation_nom: string;
  astreinte: number;
  metier_id: string | null;
  metier_nom: string | null;
  probleme: string;
  photo_ref: string | null;
  created_at: string;
  delai: number | null;
  echeance: string | null;
  operateur_id: string | null;
  operateur_prenom: string | null;
  operateur_nom: string | null;
  demandeur_prenom: string;
  demandeur_nom: string;
  demandeur_email: string;
  demandeur_telephone: string;
  technicien_id: string | null;
  technicien_prenom: string | null;
  technicien_nom: string | null;
  pris_en_charge_at: string | null;
  clos_at: string | null;
  arrive_at: string | null;
  clos_technicien_id: string | null;
  clos_technicien_prenom: string | null;
  clos_technicien_nom: string | null;
  constat_tech: string | null;
  remarque_tech: string | null;
  etat_arrivee: string | null;
  etat_depart: string | null;
  temps_trajet: string | null;
  signature_client_ref: string | null;
  signature_technicien_ref: string | null;
  nom_rapport: string | null;
  devis: number;
  date_devis: string | null;
  numero_devis: string | null;
  date_enregistrement_devis: string | null;
  devis_valide_at: string | null;
  interventions_supp_count: number;
  last_revision: number;
}

const ticketsTable: FoldedTable<TicketRow> = {
  table: 'rm.tickets',
  key: 'id',
  revision: 'last_revision',
  columns: {
    id: 'uuid',
    num_chrono: 'text',
    source: 'text',
    statut: 'text',
    urgent: 'boolean',
    agence_id: 'uuid',
    client_id: 'uuid',
    client_nom: 'text',
    site_id: 'uuid',
    site_nom: 'text',
    site_adresse: 'text',
    site_code_postal: 'text',
    site_ville: 'text',
    installation_id: 'uuid',
    installation_nom: 'text',
    astreinte: 'smallint',
    metier_id: 'uuid',
    metier_nom: 'text',
    probleme: 'text',
    photo_ref: 'text',
    created_at: 'timestamptz',
    delai: 'float8',
    echeance: 'timestamptz',
    operateur_id: 'uuid',
    operateur_prenom: 'text',
    operateur_nom: 'text',
    demandeur_prenom: 'text',
    demandeur_nom: 'text',
    demandeur_email: 'text',
    demandeur_telephone: 'text',
    technicien_id: 'uuid',
    technicien_prenom: 'text',
    technicien_nom: 'text',
    pris_en_charge_at: 'timestamptz',
    clos_at: 'timestamptz',
    arrive_at: 'timestamptz',
    clos_technicien_id: 'uuid',
    clos_technicien_prenom: 'text',
    clos_technicien_nom: 'text',
    constat_tech: 'text',
    remarque_tech: 'text',
    etat_arrivee: 'text',
    etat_depart: 'text',
    temps_trajet: 'text',
    signature_client_ref: 'text',
    signature_technicien_ref: 'text',
    nom_rapport: 'text',
    devis: 'smallint',
    date_devis: 'timestamptz',
    numero_devis: 'text',
    date_enregistrement_devis: 'text',
    devis_valide_at: 'timestamptz',
    interventions_supp_count: 'int',
    last_revision: 'int',
  },
};

/** A ticket event with the ticket it belongs to and its revision in the ticket's stream. */
export interface TicketFact {
  ticketId: string;
  revision: number;
  event: TicketEvent;
}

export function ticketFact(recorded: RecordedEvent): TicketFact {
  return { ticketId: ticketIdOf(recorded), revision: recorded.revision, event: domainEvent(ticketEventSchema, recorded) };
}

/** The quote columns after a visit: the quote rule (visitOpensQuote), its window from that visit's end. */
export function quoteAfterVisit<Row extends { devis: number; date_devis: string | null }>(row: Row, visit: TicketVisitReport): Pick<Row, 'devis' | 'date_devis'> {
  return visitOpensQuote(row.devis === 1, visit) ? { devis: 1, date_devis: visit.closedAt } : { devis: row.devis, date_devis: row.date_devis };
}

/**
 * rm.tickets after one event: the one statement of what each ticket event
 * does to a ticket's row. No row yet: only the opening makes one. Every event
 * applied moves `last_revision`, so it always equals the revision of the
 * ticket stream the row reflects.
 */
function evolveTicketRow(row: TicketRow | null, { ticketId, revision, event }: TicketFact): TicketRow | null {
  if (event.type === 'TicketOpened') {
    if (row !== null) return row;
    const d = event.data;
    return {
      id: ticketId,
      num_chrono: d.numChrono,
      source: d.source,
      statut: 'ouvert',
      urgent: d.urgent,
      agence_id: d.agenceId,
      client_id: d.client.id,
      client_nom: d.client.nom,
      site_id: d.site.id,
      site_nom: d.site.nom,
      site_adresse: d.site.adresse,
      site_code_postal: d.site.code_postal,
      site_ville: d.site.ville,
      installation_id: d.installation.id,
      installation_nom: d.installation.nom,
      astreinte: d.installation.astreinte,
      metier_id: d.metier?.id ?? null,
      metier_nom: d.metier?.nom ?? null,
      probleme: d.probleme,
      photo_ref: d.photo,
      created_at: d.openedAt,
      delai: d.delai,
      echeance: d.echeance,
      operateur_id: d.operateur?.id ?? null,
      operateur_prenom: d.operateur?.prenom ?? null,
      operateur_nom: d.operateur?.nom ?? null,
      demandeur_prenom: d.requester.prenom,
      demandeur_nom: d.requester.nom,
      demandeur_email: d.requester.email,
      demandeur_telephone: d.requester.telephone,
      technicien_id: null,
      technicien_prenom: null,
      technicien_nom: null,
      pris_en_charge_at: null,
      clos_at: null,
      arrive_at: null,
      clos_technicien_id: null,
      clos_technicien_prenom: null,
      clos_technicien_nom: null,
      constat_tech: null,
      remarque_tech: d.remarqueTech ?? null,
      etat_arrivee: null,
      etat_depart: null,
      temps_trajet: null,
      signature_client_ref: null,
      signature_technicien_ref: null,
      nom_rapport: null,
      devis: 0,
      date_devis: null,
      numero_devis: null,
      date_enregistrement_devis: null,
      devis_valide_at: null,
      interventions_supp_count: 0,
      last_revision: revision,
    };
  }
  if (row === null) return null;
  switch (event.type) {
    case 'TicketTakenInCharge': {
      const { technicien, takenAt } = event.data;
      return { ...row, statut: 'en_cours', technicien_id: technicien.id, technicien_prenom: technicien.prenom, technicien_nom: technicien.nom, pris_en_charge_at: takenAt, last_revision: revision };
    }
    case 'TicketClosed': {
      const d = event.data;
      return {
        ...row,
        statut: 'clos',
        clos_at: d.closedAt,
        arrive_at: d.arriveAt,
        clos_technicien_id: d.technicien.id,
        clos_technicien_prenom: d.technicien.prenom,
        clos_technicien_nom: d.technicien.nom,
        constat_tech: d.constatTech,
        remarque_tech: d.remarqueTech,
        etat_arrivee: d.etatArrivee,
        etat_depart: d.etatDepart,
        temps_trajet: d.tempsTrajet,
        signature_client_ref: d.signatureClient,
        signature_technicien_ref: d.signatureTechnicien,
        ...quoteAfterVisit(row, d),
        last_revision: revision,
      };
    }
    case 'ReinterventionRecorded':
      // arrive_at: the next visit's arrival is not known yet (« Je suis sur site » sets it).
      return {
        ...row,
        statut: 'intervention',
        arrive_at: null,
        interventions_supp_count: row.interventions_supp_count + 1,
        ...quoteAfterVisit(row, event.data),
        last_revision: revision,
      };
    case 'TechnicianArrivedOnSite':
      // The arrival of the visit in progress, until its close writes the visit's own.
      return { ...row, arrive_at: row.statut === 'clos' ? row.arrive_at : event.data.arrivedAt, last_revision: revision };
    case 'TicketReportAttached':
      // The ticket's own report names it; a re-intervention's only moves the revision.
      return { ...row, nom_rapport: event.data.interventionId === null ? event.data.nomRapport : row.nom_rapport, last_revision: revision };
    case 'QuoteValidated': {
      const { numeroDevis, dateEnregistrementDevis, validatedAt } = event.data;
      return { ...row, numero_devis: numeroDevis, date_enregistrement_devis: dateEnregistrementDevis, devis_valide_at: validatedAt, last_revision: revision };
    }
  }
}

/** rm.tickets' one writer (`ticketsProjector.apply`): the batch folded per ticket, one row write each. */
export async function applyTicketsFold(tx: PoolClient, events: readonly RecordedEvent[], replay?: Replay): Promise<string[]> {
  const { rows } = await foldAndWrite(tx, ticketsTable, events.map(ticketFact), (fact) => fact.ticketId, (fact) => fact.revision, evolveTicketRow, { cache: replay?.rows });
  return [...rows.keys()];
}
