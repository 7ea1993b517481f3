import { randomUUID } from 'node:crypto';

/*
 * Ticket events as projector tests append them (`{ type, data }`), with the
 * fields the tests do not look at filled in.
 */

export interface TicketEventInput {
  type: string;
  data: unknown;
}

export interface OpenOptions {
  agenceId: string;
  metierId: string | null;
  openedAt: string;
  /** Hours; 4 when not given. */
  delai?: number | null;
  numChrono?: string;
}

export function ticketOpened(ticketId: string, o: OpenOptions): TicketEventInput {
  const delai = o.delai === undefined ? 4 : o.delai;
  return {
    type: 'TicketOpened',
    data: {
      ticketId,
      numChrono: o.numChrono ?? `LYO-2025-${ticketId.slice(0, 5)}`,
      source: 'manual',
      agenceId: o.agenceId,
      client: { id: randomUUID(), nom: 'Hôpital Nord' },
      site: { id: randomUUID(), nom: 'Bâtiment A', adresse: '1 rue du Feu', code_postal: '69001', ville: 'Lyon' },
      installation: { id: randomUUID(), nom: 'SSI cat. A', astreinte: 1 },
      metier: o.metierId === null ? null : { id: o.metierId, nom: 'SSI' },
      delai,
      echeance: delai === null ? null : new Date(Date.parse(o.openedAt) + delai * 3_600_000).toISOString(),
      urgent: false,
      probleme: 'Alarme en dérangement',
      photo: null,
      requester: { nom: 'Durand', prenom: 'Paul', email: 'paul@client.fr', telephone: '0601020304' },
      operateur: null,
      openedAt: o.openedAt,
    },
  };
}

/** A visit's report (TicketClosed, ReinterventionRecorded with an `interventionId`). */
export function ticketVisit(technicien: { id: string; prenom: string; nom: string }, arriveAt: string, closedAt: string, devis: 0 | 1 = 0) {
  return {
    constatTech: 'Détecteur remplacé',
    remarqueTech: '',
    devis,
    arriveAt,
    closedAt,
    etatArrivee: 'En dérangement',
    etatDepart: 'Fonctionnel',
    tempsTrajet: '00:20',
    signatureClient: 'sig-client',
    signatureTechnicien: 'sig-tech',
    technicien,
  };
}
