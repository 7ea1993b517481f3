import type { Ticket } from '@fsm/contracts';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';
import { GUID, answerColumns, answerTicket } from './ticket-answer-sql.js';

/** One ticket, or null when it does not exist or is outside the caller's scope: the lists' select list, so the detail is their ticket. */
export async function findTicket(db: Queryable, scope: AgenceScope, id: string, now: Date): Promise<Ticket | null> {
  if (!GUID.test(id)) return null;
  const params: unknown[] = [id, now];
  const { rows } = await db.query<Ticket>(
    `SELECT ${answerColumns('$2::timestamptz')} FROM rm.tickets t WHERE t.id = $1${scopeClause(scope, 't.agence_id', params)}`,
    params,
  );
  const row = rows[0];
  return row ? answerTicket(row) : null;
}

/** Internal facts of one visit for the report (never sent to the browser). */
export interface TicketVisitSignatures {
  signature_client_ref: string;
  signature_technicien_ref: string;
  technicien_prenom: string;
  technicien_nom: string;
}

/**
 * Signature references and technician of a visit, for rendering its report:
 * the closing visit when `interventionId` is null, else that re-intervention.
 * Null when the visit is unknown or the ticket is not closed yet.
 */
export async function findVisitSignatures(db: Queryable, ticketId: string, interventionId: string | null): Promise<TicketVisitSignatures | null> {
  if (!GUID.test(ticketId) || (interventionId !== null && !GUID.test(interventionId))) return null;
  const { rows } =
    interventionId === null
      ? await db.query<TicketVisitSignatures>(
          `SELECT signature_client_ref, signature_technicien_ref, clos_technicien_prenom AS technicien_prenom, clos_technicien_nom AS technicien_nom
           FROM rm.tickets WHERE id = $1 AND statut = 'clos' AND signature_client_ref IS NOT NULL`,
          [ticketId],
        )
      : await db.query<TicketVisitSignatures>(
          `SELECT signature_client_ref, signature_technicien_ref, technicien_prenom, technicien_nom
           FROM rm.ticket_interventions WHERE id = $1 AND ticket_id = $2`,
          [interventionId, ticketId],
        );
  return rows[0] ?? null;
}
