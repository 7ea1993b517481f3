import { ticketEventSchema, ValidationError, ticketStreamId, type TicketPerson } from '@fsm/contracts';
import { findUserById, type Queryable } from '@fsm/projections';
import { ticketDecider } from '../../domain/ticket/index.js';
import { commandHandler } from '../execute.js';

/** Runs a command on a ticket's stream. */
export const runTicketCommand = commandHandler({ decider: ticketDecider, streamOf: ticketStreamId, events: ticketEventSchema });

/** Not in the spec: the technician picked does not work for the ticket's agency (or is not staff). */
export const TECHNICIEN_NOT_IN_AGENCE = 'Ce technicien n’appartient pas à l’agence du ticket.';

/**
 * The technician chosen for a ticket (take in charge, a visit, manual
 * creation): a live staff user of the ticket's agency, named as they are now
 * (the event keeps that name as a fact of the day).
 */
export async function resolveTechnicien(db: Queryable, technicienId: string, agenceId: string): Promise<TicketPerson> {
  const user = await findUserById(db, technicienId);
  if (!user || user.role === 'telesurveillance' || user.agence_id !== agenceId) throw new ValidationError(TECHNICIEN_NOT_IN_AGENCE);
  return { id: user.id, prenom: user.prenom, nom: user.nom };
}

/**
 * The signed-in user recording a visit, named as they are now: the report
 * says who signed for the technician when it is not the technician named.
 * null when the caller has no user (seed, import) or it is gone.
 */
export async function resolveAuteur(db: Queryable, userId: string | null): Promise<TicketPerson | null> {
  if (userId === null) return null;
  const user = await findUserById(db, userId);
  return user ? { id: user.id, prenom: user.prenom, nom: user.nom } : null;
}
