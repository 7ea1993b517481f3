import { TICKET_MESSAGES as M, type TicketVisitBody, type ValidateQuoteBody } from '@fsm/contracts';
import { requireVisitTimes, type TicketVisitInput } from '../../domain/ticket/index.js';
import { signatureBytes } from '../../files/uploads.js';
import type { FileCaller } from '../command-context.js';
import type { CommandCaller } from '../execute.js';
import { resolveAuteur, resolveTechnicien, runTicketCommand } from './ticket-command-support.js';

/**
 * Handlers of the commands on an existing ticket. The route has already
 * parsed the body (zod, contracts) and checked the caller's role and the
 * ticket's scope; here: resolve what the command needs from the read models
 * and the file store, then load → fold → decide → append (`runTicketCommand`), which
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

/** PATCH /api/tickets/{id} `{ statut: 'en_cours', technicien_id }`. */
export async function handleTakeTicketInCharge(caller: CommandCaller, input: { ticket: TicketRef; technicienId: string }) {
  const technicien = await resolveTechnicien(caller.db, input.technicienId, input.ticket.agence_id);
  return runTicketCommand(caller, input.ticket.id, { type: 'TakeTicketInCharge', data: { technicien, takenAt: caller.now.toISOString() } });
}

/**
 * The visit of a closure or a re-intervention. Signatures are stored in the
 * file store (PNG checked by content) and the events carry their references.
 * Without `date_cloture` the visit ends now; without `arrive_at` the
 * technician arrived at the end of the visit (now, when neither is given), so
 * a visit typed afterwards with only its end is never "arrived after it
 * ended". Without `technicien_id`, the technician in charge did the visit.
 * The signed-in user is recorded as its author beside the technician named.
 * The decider's time rules are applied before the signatures are stored, so
 * a refused visit leaves no file behind; only on a ticket a visit fits, so
 * that any other still answers the decider's 409 first.
 */
async function visitInput(caller: FileCaller, ticket: TicketRef, body: TicketVisitBody): Promise<TicketVisitInput> {
  const now = caller.now.toISOString();
  const closedAt = body.date_cloture ?? now;
  const arriveAt = body.arrive_at ?? closedAt;
  if (ticket.statut === 'en_cours' || ticket.statut === 'intervention') requireVisitTimes({ arriveAt, closedAt }, ticket.created_at, now);
  const technicien = body.technicien_id === undefined ? null : await resolveTechnicien(caller.db, body.technicien_id, ticket.agence_id);
  const auteur = await resolveAuteur(caller.db, caller.actor.userId);
  const clientBytes = await signatureBytes(body.signature_client, M.invalidSignature);
  const technicienBytes = await signatureBytes(body.signature_technicien, M.invalidSignature);
  const [signatureClient, signatureTechnicien] = await Promise.all([caller.blobs.put(clientBytes, 'png'), caller.blobs.put(technicienBytes, 'png')]);
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
    auteur,
    now,
  };
}

/** PATCH /api/tickets/{id}/close. */
export async function handleCloseTicket(caller: FileCaller, input: { ticket: TicketRef; body: TicketVisitBody }) {
  return runTicketCommand(caller, input.ticket.id, { type: 'CloseTicket', data: await visitInput(caller, input.ticket, input.body) });
}

/** POST /api/tickets/{id}/intervention: a visit that does not settle the ticket (status `intervention`). */
export async function handleRecordReintervention(caller: FileCaller, input: { ticket: TicketRef; body: TicketVisitBody }) {
  const interventionId = caller.context.newId();
  const data = { ...(await visitInput(caller, input.ticket, input.body)), interventionId };
  const result = await runTicketCommand(caller, input.ticket.id, { type: 'RecordReintervention', data });
  return { ...result, interventionId };
}

/** POST /api/tickets/{id}/sur-site: « Je suis sur site », by the server's clock, for the signed-in user. */
export async function handleRecordArrivalOnSite(caller: CommandCaller, input: { ticket: TicketRef }) {
  const technicien = await resolveAuteur(caller.db, caller.actor.userId);
  return runTicketCommand(caller, input.ticket.id, { type: 'RecordArrivalOnSite', data: { technicien, arrivedAt: caller.now.toISOString() } });
}

/** PATCH /api/tickets/{id} `{ nom_rapport }` (interventionId null) and PATCH .../interventions/{interventionId}. */
export async function handleAttachReport(caller: CommandCaller, input: { ticket: TicketRef; nomRapport: string; interventionId: string | null }) {
  return runTicketCommand(caller, input.ticket.id, { type: 'AttachReport', data: { nomRapport: input.nomRapport, interventionId: input.interventionId } });
}

/** PATCH /api/tickets/{id}/update. */
export async function handleValidateQuote(caller: CommandCaller, input: { ticket: TicketRef; body: ValidateQuoteBody }) {
  const { body } = input;
  return runTicketCommand(caller, input.ticket.id, {
    type: 'ValidateQuote',
    data: { numeroDevis: body.numero_devis, dateEnregistrementDevis: body.date_enregistrement_devis ?? null, validatedAt: caller.now.toISOString() },
  });
}
