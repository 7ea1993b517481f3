import { TICKET_MESSAGES, TICKET_TRAVEL_TIME_PATTERN, parseTicketDateTime, type Ticket } from '@fsm/contracts';
import { personName } from '../../../lib/lookups/lookup-types';
import type { VisitDraft, WizardStep } from '../visit-draft';

/** The visit wizard's checks per step and its request body (spec §5). */
export type FieldErrors = Partial<Record<keyof VisitDraft, string>>;

export const STEP_OF_FIELD: Partial<Record<string, WizardStep>> = {
  technicien_id: 1,
  arrive_at: 1,
  etat_arrivee: 1,
  temps_trajet: 1,
  constat_tech: 2,
  remarque_tech: 2,
  etat_depart: 2,
  devis: 2,
  date_cloture: 2,
  signature_client: 3,
  signataire_nom: 3,
  signataire_qualite: 3,
  signature_technicien: 3,
};

export function checkStep(step: WizardStep, draft: VisitDraft): FieldErrors {
  const errors: FieldErrors = {};
  if (step === 1) {
    if (!draft.etat_arrivee) errors.etat_arrivee = 'Choisissez l’état de l’installation à l’arrivée.';
    if (draft.temps_trajet && !TICKET_TRAVEL_TIME_PATTERN.test(draft.temps_trajet)) errors.temps_trajet = TICKET_MESSAGES.invalidTravelTime;
    if (draft.arrive_at && parseTicketDateTime(draft.arrive_at) === null) errors.arrive_at = TICKET_MESSAGES.invalidDate;
  }
  if (step === 2) {
    if (!draft.constat_tech.trim()) errors.constat_tech = TICKET_MESSAGES.constatRequired;
    if (!draft.etat_depart) errors.etat_depart = 'Choisissez l’état de l’installation au départ.';
    if (draft.date_cloture && parseTicketDateTime(draft.date_cloture) === null) errors.date_cloture = TICKET_MESSAGES.invalidDate;
  }
  if (step === 3) {
    if (!draft.signature_client) errors.signature_client = TICKET_MESSAGES.signatureClientRequired;
    if (!draft.signature_technicien) errors.signature_technicien = TICKET_MESSAGES.signatureTechnicienRequired;
  }
  return errors;
}

/** The requester signs for the client unless the technician typed someone else. */
export function signerName(draft: VisitDraft, ticket: Ticket): string {
  return draft.signataire_nom ?? personName(ticket);
}

export function toBody(draft: VisitDraft, ticket: Ticket) {
  return {
    constat_tech: draft.constat_tech,
    remarque_tech: draft.remarque_tech,
    devis: draft.devis ? 1 : 0,
    date_cloture: draft.date_cloture ? (parseTicketDateTime(draft.date_cloture) ?? draft.date_cloture) : undefined,
    arrive_at: draft.arrive_at ? (parseTicketDateTime(draft.arrive_at) ?? draft.arrive_at) : undefined,
    etat_arrivee: draft.etat_arrivee,
    etat_depart: draft.etat_depart,
    temps_trajet: draft.temps_trajet,
    signature_client: draft.signature_client ?? '',
    signature_technicien: draft.signature_technicien ?? '',
    technicien_id: draft.technicien_id || undefined,
    signataire_nom: signerName(draft, ticket),
    signataire_qualite: draft.signataire_qualite,
  };
}
