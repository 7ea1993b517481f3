import { TICKET_DEFAULT_TRAVEL_TIME } from '@fsm/contracts';
import { parisDateTimeInput } from '../../lib/format';
import type { VisitMode } from './api/record-visit';

/**
 * The close / re-intervention wizard's draft, kept in localStorage until the
 * visit is sent (UI.md: "nothing lost if the page reloads mid-wizard"). One
 * draft per user and ticket, so a shared tablet never shows one technician's
 * signatures to the next.
 */
export type WizardStep = 1 | 2 | 3;

export interface VisitDraft {
  version: 1;
  mode: VisitMode;
  step: WizardStep;
  /** The wizard was open when last saved: a reload opens it again. */
  open: boolean;
  technicien_id: string;
  /** `YYYY-MM-DDTHH:mm`, French local time. */
  arrive_at: string;
  etat_arrivee: string;
  temps_trajet: string;
  constat_tech: string;
  remarque_tech: string;
  etat_depart: string;
  devis: boolean;
  /**
   * `YYYY-MM-DDTHH:mm`, French local time; empty (the default): the visit ends
   * when it is validated, by the server's clock. Never the arrival's time by
   * default (issue 32: both read "now" and the report said 00:38 / 00:38).
   */
  date_cloture: string;
  /** PNG data URLs. */
  signature_client: string | null;
  signature_technicien: string | null;
  /**
   * Who signs for the client and in which role. Absent until typed (drafts saved
   * before these fields existed too): the requester signs.
   */
  signataire_nom?: string;
  signataire_qualite?: string;
  /** Report e-mail: 'demandeur' and/or contact ids. */
  recipients: string[];
}

const PREFIX = 'fsm.visit-draft';

export function draftKey(userId: string | number, ticketId: string): string {
  return `${PREFIX}.${String(userId)}.${ticketId}`;
}

/**
 * A new draft. The arrival is the one recorded with « Je suis sur site »
 * (`arrivedAt`, the ticket's `arrive_at` while the visit is in progress), else
 * the moment the wizard is opened: saved with the draft, so a reload keeps it.
 */
export function newDraft(mode: VisitMode, technicienId: string | null, now: Date = new Date(), arrivedAt: string | null = null): VisitDraft {
  const arrival = arrivedAt !== null && !Number.isNaN(Date.parse(arrivedAt)) ? new Date(arrivedAt) : now;
  return {
    version: 1,
    mode,
    step: 1,
    open: true,
    technicien_id: technicienId ?? '',
    arrive_at: parisDateTimeInput(arrival),
    etat_arrivee: '',
    temps_trajet: TICKET_DEFAULT_TRAVEL_TIME,
    constat_tech: '',
    remarque_tech: '',
    etat_depart: '',
    devis: false,
    date_cloture: '',
    signature_client: null,
    signature_technicien: null,
    recipients: ['demandeur'],
  };
}

function isDraft(value: unknown): value is VisitDraft {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<VisitDraft>;
  return v.version === 1 && (v.mode === 'close' || v.mode === 'reintervention') && (v.step === 1 || v.step === 2 || v.step === 3);
}

export function loadDraft(key: string): VisitDraft | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isDraft(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** False when storage refused it (full, private mode): the wizard still works, only without the safety net. */
export function saveDraft(key: string, draft: VisitDraft): boolean {
  try {
    window.localStorage.setItem(key, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to do: the draft simply stays until storage works again.
  }
}
