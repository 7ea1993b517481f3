import { TICKET_MESSAGES as M, ticketStreamId, type TicketVisitBody, type ValidateQuoteBody } from '@fsm/contracts';
import type { AppDeps } from '../../app-deps.js';
import { requireVisitTimes, ticketDecider, type TicketCommand, type TicketVisitInput } from '../../domain/ticket/index.js';
import { signatureBytes } from '../../files/uploads.js';
import { commandContext } from '../command-context.js';
import { execute, type Actor } from '../execute.js';
import { resolveTechnicien, toTicketEvent } from './ticket-command-support.js';

/**
 * Handlers of the commands on an existing ticket. The route has already
 * parsed the body (zod, contracts) and checked the caller's role and the
 * ticket's scope; here: resolve what the command needs from the read models
 * and the file store, then load → fold → decide → append (`execute`), which
 * also waits for the read models so the route can re-read the ticket.
 */

/** The ticket as the route found it in the caller's scope. */
export interface TicketRef {
  id: string;
  agence_id: string;
  /** Its opening instant (ISO): a visit cannot start before it. */
  created_at: string;
  statut: string;
}

function run(deps: AppDeps, actor: Actor, ticketId: string, command: TicketCommand) {
  return execute(commandContext(deps), ticketDecider, ticketStreamId(ticketId), command, actor, toTicketEvent);
}

/** PATCH /api/tickets/{id} `{ statut: 'en_cours', technicien_id }`. */
export async function takeTicketInCharge(deps: AppDeps, actor: Actor, ticket: TicketRef, technicienId: string) {
  const technicien = await resolveTechnicien(deps.pool, technicienId, ticket.agence_id);
  return run(deps, actor, ticket.id, { type: 'TakeTicketInCharge', data: { technicien, takenAt: deps.clock().toISOString() } });
}

/**
 * The visit of a closure or a re-intervention. Signatures are stored in the
 * file store (PNG checked by content) and the events carry their references.
 * Without `date_cloture` the visit ends now; without `arrive_at` the
 * technician arrived at the end of the visit (now, when neither is given), so
 * a visit typed afterwards with only its end is never "arrived after it
 * ended". Without `technicien_id`, the technician in charge did the visit.
 * The decider's time rules are applied before the signatures are stored, so
 * a refused visit leaves no file behind; only on a ticket a visit fits, so
 * that any other still answers the decider's 409 first.
 */
async function visitInput(deps: AppDeps, ticket: TicketRef, body: TicketVisitBody): Promise<TicketVisitInput> {
  const now = deps.clock().toISOString();
  const closedAt = body.date_cloture ?? now;
  const arriveAt = body.arrive_at ?? closedAt;
  if (ticket.statut === 'en_cours' || ticket.statut === 'intervention') requireVisitTimes({ arriveAt, closedAt }, ticket.created_at, now);
  const technicien = body.technicien_id === undefined ? null : await resolveTechnicien(deps.pool, body.technicien_id, ticket.agence_id);
  const clientBytes = await signatureBytes(body.signature_client, M.invalidSignature);
  const technicienBytes = await signatureBytes(body.signature_technicien, M.invalidSignature);
  const [signatureClient, signatureTechnicien] = await Promise.all([deps.blobs.put(clientBytes, 'png'), deps.blobs.put(technicienBytes, 'png')]);
  return {
    constatTech: body.constat_tech,
    remarqueTech: body.remarque_tech,
    devis: body.devis,
    arriveAt,
    closedAt,
    etatArrivee: body.etat_arrivee,
    etatDepart: body.etat_depart,
    tempsTrajet: body.temps_trajet,
    signatureClient,
    signatureTechnicien,
    technicien,
    signataireNom: body.signataire_nom,
    signataireQualite: body.signataire_qualite,
    now,
  };
}

/** PATCH /api/tickets/{id}/close. */
export async function closeTicket(deps: AppDeps, actor: Actor, ticket: TicketRef, body: TicketVisitBody) {
  return run(deps, actor, ticket.id, { type: 'CloseTicket', data: await visitInput(deps, ticket, body) });
}

/** POST /api/tickets/{id}/intervention: a visit that does not settle the ticket (status `intervention`). */
export async function recordReintervention(deps: AppDeps, actor: Actor, ticket: TicketRef, body: TicketVisitBody) {
  const interventionId = deps.newId();
  const result = await run(deps, actor, ticket.id, { type: 'RecordReintervention', data: { ...(await visitInput(deps, ticket, body)), interventionId } });
  return { ...result, interventionId };
}

/** PATCH /api/tickets/{id} `{ nom_rapport }` (interventionId null) and PATCH .../interventions/{interventionId}. */
export async function attachReport(deps: AppDeps, actor: Actor, ticket: TicketRef, nomRapport: string, interventionId: string | null) {
  return run(deps, actor, ticket.id, { type: 'AttachReport', data: { nomRapport, interventionId } });
}

/** PATCH /api/tickets/{id}/update. */
export async function validateQuote(deps: AppDeps, actor: Actor, ticket: TicketRef, body: ValidateQuoteBody) {
  return run(deps, actor, ticket.id, {
    type: 'ValidateQuote',
    data: { numeroDevis: body.numero_devis, dateEnregistrementDevis: body.date_enregistrement_devis ?? null, validatedAt: deps.clock().toISOString() },
  });
}
