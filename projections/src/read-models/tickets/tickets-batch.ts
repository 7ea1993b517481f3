import { TicketEventSchema, type TicketEvent } from '@fsm/contracts';
import type { RecordedEvent } from '@fsm/eventstore';
import type { PoolClient } from 'pg';
import { domainEvent } from '../domain-event.js';
import { quoteFromVisit } from './quote-from-visit.js';
import { columns, streamRounds } from './ticket-rounds.js';
import { ticketIdOf } from './ticket-stream.js';

/*
 * rm.tickets' one writer (`ticketsProjector.apply`), a batch at a time: one
 * statement per event type and stream round instead of one per event. A
 * rebuild replays millions of ticket events; one round trip each made it run
 * at a few thousand events/s. Every write is guarded by the ticket stream's
 * revision, so a redelivered event changes nothing.
 */

interface Parsed<Type extends TicketEvent['type'] = TicketEvent['type']> {
  ticketId: string;
  revision: number;
  event: Extract<TicketEvent, { type: Type }>;
}

function byType(round: readonly RecordedEvent[]): Map<string, Parsed[]> {
  const groups = new Map<string, Parsed[]>();
  for (const recorded of round) {
    const event = domainEvent(TicketEventSchema, recorded);
    const list = groups.get(event.type) ?? [];
    list.push({ ticketId: ticketIdOf(recorded), revision: recorded.revision, event });
    groups.set(event.type, list);
  }
  return groups;
}

/** The group of one type; `byType` keyed each event by its own `type`, hence the cast. */
const of = <Type extends TicketEvent['type']>(groups: Map<string, Parsed[]>, type: Type) => (groups.get(type) ?? []) as unknown as Parsed<Type>[];

export async function applyTicketsBatch(tx: PoolClient, events: readonly RecordedEvent[]): Promise<string[]> {
  const changed = new Set<string>();
  for (const round of streamRounds(events)) {
    const groups = byType(round);
    for (const list of groups.values()) for (const item of list) changed.add(item.ticketId);

    const opened = of(groups, 'TicketOpened');
    if (opened.length > 0) {
      await tx.query(
        `INSERT INTO rm.tickets (
           id, num_chrono, source, statut, urgent, agence_id,
           client_id, client_nom, site_id, site_nom, site_adresse, site_code_postal, site_ville,
           installation_id, installation_nom, astreinte, metier_id, metier_nom,
           probleme, photo_ref, created_at, delai, echeance,
           operateur_id, operateur_prenom, operateur_nom,
           demandeur_prenom, demandeur_nom, demandeur_email, demandeur_telephone,
           remarque_tech, last_revision)
         SELECT u.id, u.num_chrono, u.source, 'ouvert', u.urgent, u.agence_id,
                u.client_id, u.client_nom, u.site_id, u.site_nom, u.site_adresse, u.site_code_postal, u.site_ville,
                u.installation_id, u.installation_nom, u.astreinte, u.metier_id, u.metier_nom,
                u.probleme, u.photo_ref, u.created_at, u.delai, u.echeance,
                u.operateur_id, u.operateur_prenom, u.operateur_nom,
                u.demandeur_prenom, u.demandeur_nom, u.demandeur_email, u.demandeur_telephone,
                u.remarque_tech, u.last_revision
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[], $5::uuid[], $6::uuid[], $7::text[], $8::uuid[], $9::text[],
                     $10::text[], $11::text[], $12::text[], $13::uuid[], $14::text[], $15::smallint[], $16::uuid[], $17::text[],
                     $18::text[], $19::text[], $20::timestamptz[], $21::float8[], $22::timestamptz[], $23::uuid[], $24::text[], $25::text[],
                     $26::text[], $27::text[], $28::text[], $29::text[], $30::text[], $31::int[])
           AS u(id, num_chrono, source, urgent, agence_id, client_id, client_nom, site_id, site_nom,
                site_adresse, site_code_postal, site_ville, installation_id, installation_nom, astreinte, metier_id, metier_nom,
                probleme, photo_ref, created_at, delai, echeance, operateur_id, operateur_prenom, operateur_nom,
                demandeur_prenom, demandeur_nom, demandeur_email, demandeur_telephone, remarque_tech, last_revision)
         ON CONFLICT (id) DO NOTHING`,
        columns(opened, [
          (o) => o.ticketId,
          (o) => o.event.data.numChrono,
          (o) => o.event.data.source,
          (o) => o.event.data.urgent,
          (o) => o.event.data.agenceId,
          (o) => o.event.data.client.id,
          (o) => o.event.data.client.nom,
          (o) => o.event.data.site.id,
          (o) => o.event.data.site.nom,
          (o) => o.event.data.site.adresse,
          (o) => o.event.data.site.code_postal,
          (o) => o.event.data.site.ville,
          (o) => o.event.data.installation.id,
          (o) => o.event.data.installation.nom,
          (o) => o.event.data.installation.astreinte,
          (o) => o.event.data.metier?.id ?? null,
          (o) => o.event.data.metier?.nom ?? null,
          (o) => o.event.data.probleme,
          (o) => o.event.data.photo,
          (o) => o.event.data.openedAt,
          (o) => o.event.data.delai,
          (o) => o.event.data.echeance,
          (o) => o.event.data.operateur?.id ?? null,
          (o) => o.event.data.operateur?.prenom ?? null,
          (o) => o.event.data.operateur?.nom ?? null,
          (o) => o.event.data.requester.prenom,
          (o) => o.event.data.requester.nom,
          (o) => o.event.data.requester.email,
          (o) => o.event.data.requester.telephone,
          (o) => o.event.data.remarqueTech ?? null,
          (o) => o.revision,
        ]),
      );
    }

    const taken = of(groups, 'TicketTakenInCharge');
    if (taken.length > 0) {
      await tx.query(
        `UPDATE rm.tickets t SET statut = 'en_cours', technicien_id = u.technicien_id, technicien_prenom = u.prenom, technicien_nom = u.nom,
           pris_en_charge_at = u.taken_at, last_revision = u.revision
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[], $6::int[]) AS u(id, technicien_id, prenom, nom, taken_at, revision)
         WHERE t.id = u.id AND t.last_revision < u.revision`,
        columns(taken, [
          (e) => e.ticketId,
          (e) => e.event.data.technicien.id,
          (e) => e.event.data.technicien.prenom,
          (e) => e.event.data.technicien.nom,
          (e) => e.event.data.takenAt,
          (e) => e.revision,
        ]),
      );
    }

    const closed = of(groups, 'TicketClosed');
    if (closed.length > 0) {
      await tx.query(
        `UPDATE rm.tickets t SET statut = 'clos', clos_at = u.clos_at, arrive_at = u.arrive_at,
           clos_technicien_id = u.technicien_id, clos_technicien_prenom = u.prenom, clos_technicien_nom = u.nom,
           constat_tech = u.constat, remarque_tech = u.remarque, etat_arrivee = u.etat_arrivee, etat_depart = u.etat_depart,
           temps_trajet = u.temps_trajet, signature_client_ref = u.signature_client, signature_technicien_ref = u.signature_technicien,
           ${quoteFromVisit('t', 'u')},
           last_revision = u.revision
         FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::uuid[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                     $10::text[], $11::text[], $12::text[], $13::text[], $14::smallint[], $15::int[])
           AS u(id, clos_at, arrive_at, technicien_id, prenom, nom, constat, remarque, etat_arrivee, etat_depart, temps_trajet,
                signature_client, signature_technicien, devis, revision)
         WHERE t.id = u.id AND t.last_revision < u.revision`,
        columns(closed, [
          (e) => e.ticketId,
          (e) => e.event.data.closedAt,
          (e) => e.event.data.arriveAt,
          (e) => e.event.data.technicien.id,
          (e) => e.event.data.technicien.prenom,
          (e) => e.event.data.technicien.nom,
          (e) => e.event.data.constatTech,
          (e) => e.event.data.remarqueTech,
          (e) => e.event.data.etatArrivee,
          (e) => e.event.data.etatDepart,
          (e) => e.event.data.tempsTrajet,
          (e) => e.event.data.signatureClient,
          (e) => e.event.data.signatureTechnicien,
          (e) => e.event.data.devis,
          (e) => e.revision,
        ]),
      );
    }

    const visits = of(groups, 'ReinterventionRecorded');
    if (visits.length > 0) {
      await tx.query(
        `UPDATE rm.tickets t SET statut = 'intervention', interventions_supp_count = t.interventions_supp_count + 1,
           ${quoteFromVisit('t', 'u')},
           last_revision = u.revision
         FROM unnest($1::uuid[], $2::timestamptz[], $3::smallint[], $4::int[]) AS u(id, clos_at, devis, revision)
         WHERE t.id = u.id AND t.last_revision < u.revision`,
        columns(visits, [(e) => e.ticketId, (e) => e.event.data.closedAt, (e) => e.event.data.devis, (e) => e.revision]),
      );
    }

    const reports = of(groups, 'TicketReportAttached');
    if (reports.length > 0) {
      // The ticket's own report sets its name; a re-intervention's only moves the revision.
      await tx.query(
        `UPDATE rm.tickets t SET nom_rapport = CASE WHEN u.own THEN u.nom_rapport ELSE t.nom_rapport END, last_revision = u.revision
         FROM unnest($1::uuid[], $2::text[], $3::boolean[], $4::int[]) AS u(id, nom_rapport, own, revision)
         WHERE t.id = u.id AND t.last_revision < u.revision`,
        columns(reports, [(e) => e.ticketId, (e) => e.event.data.nomRapport, (e) => e.event.data.interventionId === null, (e) => e.revision]),
      );
    }

    const quotes = of(groups, 'QuoteValidated');
    if (quotes.length > 0) {
      await tx.query(
        `UPDATE rm.tickets t SET numero_devis = u.numero, date_enregistrement_devis = u.date_enregistrement, devis_valide_at = u.validated_at, last_revision = u.revision
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::int[]) AS u(id, numero, date_enregistrement, validated_at, revision)
         WHERE t.id = u.id AND t.last_revision < u.revision`,
        columns(quotes, [(e) => e.ticketId, (e) => e.event.data.numeroDevis, (e) => e.event.data.dateEnregistrementDevis, (e) => e.event.data.validatedAt, (e) => e.revision]),
      );
    }
  }
  return [...changed];
}
