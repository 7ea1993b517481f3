import type { Projector } from '../../projector.js';
import { applyTicketsFold } from './tickets-fold.js';

/**
 * One row per ticket with every fact its answers need (spec tickets §3), so
 * the open list, the closed search, the detail and the home counts each read
 * one table through an index.
 *
 * - `technicien_*` is the technician who took the ticket in charge (what the
 *   card shows, spec §2); the technician of the closing visit, who may be
 *   someone else, is kept apart in `clos_technicien_*`.
 * - The visit columns (`arrive_at`, `constat_tech`, ...) are the closing
 *   visit's; re-interventions live in `rm.ticket_interventions`. Before the
 *   close, `arrive_at` is the visit in progress's « Je suis sur site »
 *   (TechnicianArrivedOnSite), null again once a re-intervention is recorded.
 * - Nothing ticks: `minutes_ecoulees` is computed by the queries from the
 *   `now` they are given.
 * - Idempotent: every write is guarded by the stream revision last applied,
 *   and every ticket event moves `last_revision`, so it always equals the
 *   revision of the ticket stream the row reflects.
 * - One writer (tickets-fold.ts): a batch's events folded per ticket onto its
 *   row, one row write per ticket. A rebuild replays millions of ticket
 *   events; a redelivered or isolated event is a batch of one.
 */
export const ticketsProjector: Projector = {
  name: 'tickets',
  version: 2,
  handles: ['TicketOpened', 'TicketTakenInCharge', 'TicketClosed', 'ReinterventionRecorded', 'TicketReportAttached', 'QuoteValidated', 'TechnicianArrivedOnSite'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.tickets (
      id uuid PRIMARY KEY,
      num_chrono text NOT NULL,
      source text NOT NULL,
      statut text NOT NULL CHECK (statut IN ('ouvert', 'en_cours', 'intervention', 'clos')),
      urgent boolean NOT NULL,
      agence_id uuid NOT NULL,
      client_id uuid NOT NULL,
      client_nom text NOT NULL,
      site_id uuid NOT NULL,
      site_nom text NOT NULL,
      site_adresse text NOT NULL,
      site_code_postal text NOT NULL,
      site_ville text NOT NULL,
      installation_id uuid NOT NULL,
      installation_nom text NOT NULL,
      astreinte smallint NOT NULL,
      metier_id uuid,
      metier_nom text,
      probleme text NOT NULL,
      photo_ref text,
      created_at timestamptz NOT NULL,
      delai double precision,
      echeance timestamptz,
      operateur_id uuid,
      operateur_prenom text,
      operateur_nom text,
      demandeur_prenom text NOT NULL,
      demandeur_nom text NOT NULL,
      demandeur_email text NOT NULL,
      demandeur_telephone text NOT NULL,
      technicien_id uuid,
      technicien_prenom text,
      technicien_nom text,
      pris_en_charge_at timestamptz,
      clos_at timestamptz,
      arrive_at timestamptz,
      clos_technicien_id uuid,
      clos_technicien_prenom text,
      clos_technicien_nom text,
      constat_tech text,
      remarque_tech text,
      etat_arrivee text,
      etat_depart text,
      temps_trajet text,
      signature_client_ref text,
      signature_technicien_ref text,
      nom_rapport text,
      devis smallint NOT NULL DEFAULT 0,
      date_devis timestamptz,
      numero_devis text,
      date_enregistrement_devis text,
      devis_valide_at timestamptz,
      interventions_supp_count int NOT NULL DEFAULT 0,
      last_revision int NOT NULL
    );`,
  // Only the screens read these (apply reads rm.tickets by id).
  queryIndexesSql: `
    -- Open list and the home counts of non-closed tickets (closed counts use tickets_closed).
    CREATE INDEX IF NOT EXISTS tickets_open ON rm.tickets (agence_id, created_at DESC) WHERE statut <> 'clos';
    -- Closed search: date range per agency, or across agencies for admin_plus, then each filter.
    CREATE INDEX IF NOT EXISTS tickets_closed ON rm.tickets (agence_id, created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_created ON rm.tickets (created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_client ON rm.tickets (client_id, created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_site ON rm.tickets (site_id, created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_installation ON rm.tickets (installation_id, created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_technicien ON rm.tickets (technicien_id, created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_clos_technicien ON rm.tickets (clos_technicien_id, created_at) WHERE statut = 'clos';
    CREATE INDEX IF NOT EXISTS tickets_closed_metier ON rm.tickets (metier_id, created_at) WHERE statut = 'clos';
    -- Late open tickets (issue 32): the « En retard » chip, its count and its order (most late first).
    CREATE INDEX IF NOT EXISTS tickets_open_echeance ON rm.tickets (agence_id, echeance, id) WHERE statut <> 'clos';
    -- A closed ticket found by its number (the closed search's text, the open board's « ticket clos » offer).
    CREATE INDEX IF NOT EXISTS tickets_num_chrono ON rm.tickets (num_chrono);
    -- Pending quotes (home counts, devis_attente filters).
    CREATE INDEX IF NOT EXISTS tickets_devis_attente ON rm.tickets (agence_id) WHERE devis = 1 AND numero_devis IS NULL;`,
  apply: applyTicketsFold,
};
