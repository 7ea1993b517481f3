import { TicketEventSchema, type TicketVisitReport } from '@fsm/contracts';
import type { PoolClient } from 'pg';
import type { Projector } from '../../projector.js';
import { domainEvent } from '../domain-event.js';
import { ticketIdOf } from './ticket-stream.js';
import { applyTicketsBatch } from './tickets-batch.js';

/**
 * One row per ticket with every fact its answers need (spec tickets §3), so
 * the open list, the closed search, the detail and the home counts each read
 * one table through an index.
 *
 * - `technicien_*` is the technician who took the ticket in charge (what the
 *   card shows, spec §2); the technician of the closing visit, who may be
 *   someone else, is kept apart in `clos_technicien_*`.
 * - The visit columns (`arrive_at`, `constat_tech`, ...) are the closing
 *   visit's; re-interventions live in `rm.ticket_interventions`.
 * - Nothing ticks: `minutes_ecoulees` is computed by the queries from the
 *   `now` they are given.
 * - Idempotent: every write is guarded by the stream revision last applied,
 *   and every ticket event moves `last_revision`, so it always equals the
 *   revision of the ticket stream the row reflects.
 */
export const ticketsProjector: Projector = {
  name: 'tickets',
  version: 2,
  handles: ['TicketOpened', 'TicketTakenInCharge', 'TicketClosed', 'ReinterventionRecorded', 'TicketReportAttached', 'QuoteValidated'],
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
    );
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
    -- Pending quotes (home counts, devis_attente filters).
    CREATE INDEX IF NOT EXISTS tickets_devis_attente ON rm.tickets (agence_id) WHERE devis = 1 AND numero_devis IS NULL;`,
  applyBatch: applyTicketsBatch,
  async apply(tx, recorded) {
    const event = domainEvent(TicketEventSchema, recorded);
    const ticketId = ticketIdOf(recorded);
    const revision = recorded.revision;
    switch (event.type) {
      case 'TicketOpened': {
        const d = event.data;
        await tx.query(
          `INSERT INTO rm.tickets (
             id, num_chrono, source, statut, urgent, agence_id,
             client_id, client_nom, site_id, site_nom, site_adresse, site_code_postal, site_ville,
             installation_id, installation_nom, astreinte, metier_id, metier_nom,
             probleme, photo_ref, created_at, delai, echeance,
             operateur_id, operateur_prenom, operateur_nom,
             demandeur_prenom, demandeur_nom, demandeur_email, demandeur_telephone,
             remarque_tech, last_revision)
           VALUES ($1, $2, $3, 'ouvert', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                   $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31)
           ON CONFLICT (id) DO NOTHING`,
          [
            ticketId,
            d.numChrono,
            d.source,
            d.urgent,
            d.agenceId,
            d.client.id,
            d.client.nom,
            d.site.id,
            d.site.nom,
            d.site.adresse,
            d.site.code_postal,
            d.site.ville,
            d.installation.id,
            d.installation.nom,
            d.installation.astreinte,
            d.metier?.id ?? null,
            d.metier?.nom ?? null,
            d.probleme,
            d.photo,
            d.openedAt,
            d.delai,
            d.echeance,
            d.operateur?.id ?? null,
            d.operateur?.prenom ?? null,
            d.operateur?.nom ?? null,
            d.requester.prenom,
            d.requester.nom,
            d.requester.email,
            d.requester.telephone,
            d.remarqueTech ?? null,
            revision,
          ],
        );
        return [ticketId];
      }
      case 'TicketTakenInCharge': {
        const { technicien, takenAt } = event.data;
        await tx.query(
          `UPDATE rm.tickets SET statut = 'en_cours', technicien_id = $2, technicien_prenom = $3, technicien_nom = $4, pris_en_charge_at = $5, last_revision = $6
           WHERE id = $1 AND last_revision < $6`,
          [ticketId, technicien.id, technicien.prenom, technicien.nom, takenAt, revision],
        );
        return [ticketId];
      }
      case 'TicketClosed': {
        const v = event.data;
        await tx.query(
          `UPDATE rm.tickets SET statut = 'clos', clos_at = $2, arrive_at = $3,
             clos_technicien_id = $4, clos_technicien_prenom = $5, clos_technicien_nom = $6,
             constat_tech = $7, remarque_tech = $8, etat_arrivee = $9, etat_depart = $10, temps_trajet = $11,
             signature_client_ref = $12, signature_technicien_ref = $13,
             ${quoteFromVisit('$14', '$2')}, last_revision = $15
           WHERE id = $1 AND last_revision < $15`,
          [
            ticketId,
            v.closedAt,
            v.arriveAt,
            v.technicien.id,
            v.technicien.prenom,
            v.technicien.nom,
            v.constatTech,
            v.remarqueTech,
            v.etatArrivee,
            v.etatDepart,
            v.tempsTrajet,
            v.signatureClient,
            v.signatureTechnicien,
            v.devis,
            revision,
          ],
        );
        return [ticketId];
      }
      case 'ReinterventionRecorded': {
        // The visit itself is a row of rm.ticket_interventions; the ticket only
        // changes status, counts it and opens the quote it may ask for.
        await visitOnTicket(tx, ticketId, event.data, revision);
        return [ticketId];
      }
      case 'TicketReportAttached': {
        if (event.data.interventionId === null) {
          await tx.query(`UPDATE rm.tickets SET nom_rapport = $2, last_revision = $3 WHERE id = $1 AND last_revision < $3`, [
            ticketId,
            event.data.nomRapport,
            revision,
          ]);
        } else {
          await bumpRevision(tx, ticketId, revision);
        }
        return [ticketId];
      }
      case 'QuoteValidated': {
        const d = event.data;
        await tx.query(
          `UPDATE rm.tickets SET numero_devis = $2, date_enregistrement_devis = $3, devis_valide_at = $4, last_revision = $5
           WHERE id = $1 AND last_revision < $5`,
          [ticketId, d.numeroDevis, d.dateEnregistrementDevis, d.validatedAt, revision],
        );
        return [ticketId];
      }
    }
  },
};

/**
 * The first visit asking for a quote opens it, and its 5-day window starts at
 * that visit's end; a later visit with devis = 0 does not withdraw it (same
 * rule as the aggregate's `evolve`). Arguments are the parameter placeholders
 * of the visit's devis and of its end.
 */
function quoteFromVisit(devis: string, visitEnd: string): string {
  return `devis = GREATEST(devis, ${devis}::smallint),
       date_devis = CASE WHEN devis = 0 AND ${devis}::smallint = 1 THEN ${visitEnd}::timestamptz ELSE date_devis END`;
}

async function visitOnTicket(tx: PoolClient, ticketId: string, visit: TicketVisitReport, revision: number): Promise<void> {
  await tx.query(
    `UPDATE rm.tickets SET statut = 'intervention', interventions_supp_count = interventions_supp_count + 1,
       ${quoteFromVisit('$3', '$2')}, last_revision = $4
     WHERE id = $1 AND last_revision < $4`,
    [ticketId, visit.closedAt, visit.devis, revision],
  );
}

/** An event of the stream that changes nothing on the row still moves its revision. */
async function bumpRevision(tx: PoolClient, ticketId: string, revision: number): Promise<void> {
  await tx.query(`UPDATE rm.tickets SET last_revision = $2 WHERE id = $1 AND last_revision < $2`, [ticketId, revision]);
}
