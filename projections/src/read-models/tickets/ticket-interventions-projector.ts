import { TicketEventSchema } from '@fsm/contracts';
import type { Projector } from '../../projector.js';
import { domainEvent } from '../domain-event.js';
import { ticketIdOf } from './ticket-stream.js';
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
  applyBatch: applyTicketInterventionsBatch,
  async apply(tx, recorded) {
    const event = domainEvent(TicketEventSchema, recorded);
    const ticketId = ticketIdOf(recorded);
    const revision = recorded.revision;
    switch (event.type) {
      case 'ReinterventionRecorded': {
        const v = event.data;
        // A second delivery hits the primary key and changes nothing, so the
        // ordinal (count of earlier rows + 1) is computed once per visit.
        await tx.query(
          `INSERT INTO rm.ticket_interventions (
             id, ticket_id, ordinal, created_at, arrive_at, clos_at,
             technicien_id, technicien_prenom, technicien_nom,
             constat_tech, remarque_tech, etat_arrivee, etat_depart, temps_trajet, devis,
             signature_client_ref, signature_technicien_ref, last_revision)
           VALUES ($1, $2, (SELECT count(*) + 1 FROM rm.ticket_interventions WHERE ticket_id = $2), $3, $4, $5,
                   $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
           ON CONFLICT (id) DO NOTHING`,
          [
            v.interventionId,
            ticketId,
            recorded.metadata.recordedAt,
            v.arriveAt,
            v.closedAt,
            v.technicien.id,
            v.technicien.prenom,
            v.technicien.nom,
            v.constatTech,
            v.remarqueTech,
            v.etatArrivee,
            v.etatDepart,
            v.tempsTrajet,
            v.devis,
            v.signatureClient,
            v.signatureTechnicien,
            revision,
          ],
        );
        return [ticketId];
      }
      case 'TicketReportAttached': {
        const { interventionId, nomRapport } = event.data;
        if (interventionId === null) return;
        await tx.query(
          `UPDATE rm.ticket_interventions SET nom_rapport = $3, last_revision = $4
           WHERE id = $1 AND ticket_id = $2 AND last_revision < $4`,
          [interventionId, ticketId, nomRapport, revision],
        );
        return [ticketId];
      }
      default:
        return;
    }
  },
};
