import type { Projector } from '../../projector.js';
import { applyTicketInterventionsBatch } from './ticket-interventions-batch.js';

/**
 * One row per re-intervention (a visit that did not settle its ticket), in
 * the order they were recorded (`ordinal` from 1). The closing visit is not a
 * row here: its facts are on the ticket itself.
 *
 * `created_at` is when the re-intervention was recorded: the event carries no
 * such instant in its data, so the store's `recordedAt` is used. It is part of
 * the log, so a rebuild gives the same value.
 */
export const ticketInterventionsProjector: Projector = {
  name: 'ticket_interventions',
  version: 1,
  handles: ['ReinterventionRecorded', 'TicketReportAttached'],
  setupSql: `
    CREATE TABLE IF NOT EXISTS rm.ticket_interventions (
      id uuid PRIMARY KEY,
      ticket_id uuid NOT NULL,
      ordinal int NOT NULL,
      created_at timestamptz NOT NULL,
      arrive_at timestamptz NOT NULL,
      clos_at timestamptz NOT NULL,
      technicien_id uuid NOT NULL,
      technicien_prenom text NOT NULL,
      technicien_nom text NOT NULL,
      constat_tech text NOT NULL,
      remarque_tech text NOT NULL,
      etat_arrivee text NOT NULL,
      etat_depart text NOT NULL,
      temps_trajet text NOT NULL,
      devis smallint NOT NULL,
      signature_client_ref text NOT NULL,
      signature_technicien_ref text NOT NULL,
      nom_rapport text,
      last_revision int NOT NULL,
      UNIQUE (ticket_id, ordinal)
    );`,
  apply: applyTicketInterventionsBatch,
};
