import type { Intervention } from '@fsm/contracts';
import { scopeClause, type AgenceScope, type Queryable } from '../queryable.js';

/** A re-intervention as the API answers it (`interventionSchema`), with its rank and technician id. */
export type InterventionView = Intervention & {
  /** 1 for the first re-intervention of its ticket, then 2, ... */
  ordinal: number;
  technicien_id: string;
};

interface InterventionRow {
  id: string;
  ticket_id: string;
  ordinal: number;
  created_at: Date;
  arrive_at: Date;
  clos_at: Date;
  technicien_id: string;
  technicien_prenom: string;
  technicien_nom: string;
  constat_tech: string;
  remarque_tech: string;
  etat_arrivee: Intervention['etat_arrivee'];
  etat_depart: Intervention['etat_depart'];
  temps_trajet: string;
  devis: number;
  nom_rapport: string | null;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A ticket's re-interventions in the order they were recorded. With a scope,
 * only when the ticket belongs to it (the route checks the ticket first, so
 * the scope is a second guard, not the only one).
 */
export async function listInterventions(db: Queryable, ticketId: string, scope: AgenceScope = 'all'): Promise<InterventionView[]> {
  if (!GUID.test(ticketId)) return [];
  const params: unknown[] = [ticketId];
  const scoped = scopeClause(scope, 't.agence_id', params);
  const { rows } = await db.query<InterventionRow>(
    `SELECT i.id, i.ticket_id, i.ordinal, i.created_at, i.arrive_at, i.clos_at, i.technicien_id, i.technicien_prenom, i.technicien_nom,
            i.constat_tech, i.remarque_tech, i.etat_arrivee, i.etat_depart, i.temps_trajet, i.devis, i.nom_rapport
     FROM rm.ticket_interventions i
     ${scoped === '' ? '' : 'JOIN rm.tickets t ON t.id = i.ticket_id'}
     WHERE i.ticket_id = $1${scoped}
     ORDER BY i.ordinal`,
    params,
  );
  return rows.map((row) => ({
    id: row.id,
    ticket_id: row.ticket_id,
    ordinal: row.ordinal,
    created_at: row.created_at.toISOString(),
    arrive_at: row.arrive_at.toISOString(),
    clos_at: row.clos_at.toISOString(),
    technicien_id: row.technicien_id,
    technicien_prenom: row.technicien_prenom,
    technicien_nom: row.technicien_nom,
    constat_tech: row.constat_tech,
    remarque_tech: row.remarque_tech,
    etat_arrivee: row.etat_arrivee,
    etat_depart: row.etat_depart,
    temps_trajet: row.temps_trajet,
    devis: row.devis === 1 ? 1 : 0,
    nom_rapport: row.nom_rapport,
  }));
}
