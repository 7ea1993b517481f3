import { ticketEventSchema } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import { domainEvent } from '../domain-event.js';
import { columns, streamRounds } from './ticket-rounds.js';
import { ticketIdOf } from './ticket-stream.js';

/**
 * rm.ticket_interventions' one writer (`ticketInterventionsProjector.apply`),
 * a batch at a time: within a round a ticket has at most one event, so the
 * ordinal subquery (earlier rows + 1) sees every earlier visit of that ticket,
 * as it would one event at a time. A second delivery of a visit hits the
 * primary key and changes nothing, so its ordinal is computed once.
 */
export async function applyTicketInterventionsBatch(tx: PoolClient, events: readonly RecordedEvent[]): Promise<string[]> {
  const changed = new Set<string>();
  for (const round of streamRounds(events)) {
    const visits: { recorded: RecordedEvent; ticketId: string; data: Extract<ReturnType<typeof parse>, { type: 'ReinterventionRecorded' }>['data'] }[] = [];
    const reports: { ticketId: string; interventionId: string; nomRapport: string; revision: number }[] = [];
    for (const recorded of round) {
      const event = parse(recorded);
      const ticketId = ticketIdOf(recorded);
      if (event.type === 'ReinterventionRecorded') {
        visits.push({ recorded, ticketId, data: event.data });
        changed.add(ticketId);
      } else if (event.type === 'TicketReportAttached' && event.data.interventionId !== null) {
        reports.push({ ticketId, interventionId: event.data.interventionId, nomRapport: event.data.nomRapport, revision: recorded.revision });
        changed.add(ticketId);
      }
    }
    if (visits.length > 0) {
      await tx.query(
        `INSERT INTO rm.ticket_interventions (
           id, ticket_id, ordinal, created_at, arrive_at, clos_at,
           technicien_id, technicien_prenom, technicien_nom,
           constat_tech, remarque_tech, etat_arrivee, etat_depart, temps_trajet, devis,
           signature_client_ref, signature_technicien_ref, last_revision)
         SELECT u.id, u.ticket_id, (SELECT count(*) + 1 FROM rm.ticket_interventions i WHERE i.ticket_id = u.ticket_id), u.created_at, u.arrive_at, u.clos_at,
                u.technicien_id, u.technicien_prenom, u.technicien_nom, u.constat_tech, u.remarque_tech, u.etat_arrivee, u.etat_depart,
                u.temps_trajet, u.devis, u.signature_client_ref, u.signature_technicien_ref, u.last_revision
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[], $6::uuid[], $7::text[], $8::text[],
                     $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::smallint[], $15::text[], $16::text[], $17::int[])
           AS u(id, ticket_id, created_at, arrive_at, clos_at, technicien_id, technicien_prenom, technicien_nom,
                constat_tech, remarque_tech, etat_arrivee, etat_depart, temps_trajet, devis, signature_client_ref, signature_technicien_ref, last_revision)
         ON CONFLICT (id) DO NOTHING`,
        columns(visits, [
          (v) => v.data.interventionId,
          (v) => v.ticketId,
          (v) => v.recorded.metadata.recordedAt,
          (v) => v.data.arriveAt,
          (v) => v.data.closedAt,
          (v) => v.data.technicien.id,
          (v) => v.data.technicien.prenom,
          (v) => v.data.technicien.nom,
          (v) => v.data.constatTech,
          (v) => v.data.remarqueTech,
          (v) => v.data.etatArrivee,
          (v) => v.data.etatDepart,
          (v) => v.data.tempsTrajet,
          (v) => v.data.devis,
          (v) => v.data.signatureClient,
          (v) => v.data.signatureTechnicien,
          (v) => v.recorded.revision,
        ]),
      );
    }
    if (reports.length > 0) {
      await tx.query(
        `UPDATE rm.ticket_interventions i SET nom_rapport = u.nom_rapport, last_revision = u.revision
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[]) AS u(id, ticket_id, nom_rapport, revision)
         WHERE i.id = u.id AND i.ticket_id = u.ticket_id AND i.last_revision < u.revision`,
        columns(reports, [(r) => r.interventionId, (r) => r.ticketId, (r) => r.nomRapport, (r) => r.revision]),
      );
    }
  }
  return [...changed];
}

function parse(recorded: RecordedEvent) {
  return domainEvent(ticketEventSchema, recorded);
}
