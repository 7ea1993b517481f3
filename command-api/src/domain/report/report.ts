import type { ReportEvent } from '@fsm/contracts';

/** Where e-mailing the report to one address stands: its latest request, and how many were made. */
interface RecipientEmails {
  /** 'asked' while the latest request is pending or sent; 'failed' once it failed. */
  status: 'asked' | 'failed';
  /** Requests made for this address so far: what a confirmed re-send refers to (issue 32). */
  requests: number;
  /** The latest request's name for the recipient, and when it was made and sent. */
  nom: string;
  prenom: string;
  requestedAt: string;
  sentAt: string | null;
}

/**
 * A visit's report as its stream tells it: whether it was asked for, whether
 * a PDF exists, whether the latest thing that happened is a failed generation,
 * and, per recipient (lower-cased address), how its e-mails went.
 */
export interface ReportState {
  /** Any event at all: the report was asked for (by the API or the close's reaction). */
  exists: boolean;
  generated: boolean;
  lastGenerationFailed: boolean;
  /**
   * A recipient gets a new request only after the previous one failed, or when
   * the user confirmed a re-send; a failure or a sending always answers the
   * recipient's latest request (the workers record them in order per request).
   */
  emails: ReadonlyMap<string, RecipientEmails>;
}

export const initialState: ReportState = { exists: false, generated: false, lastGenerationFailed: false, emails: new Map() };

const keyOf = (email: string): string => email.toLowerCase();

export function evolve(state: ReportState, event: ReportEvent): ReportState {
  const next: ReportState = { ...state, exists: true, lastGenerationFailed: event.type === 'ReportGenerationFailed' };
  switch (event.type) {
    case 'ReportGenerated':
      return { ...next, generated: true };
    case 'ReportEmailRequested': {
      const key = keyOf(event.data.recipient.email);
      const { nom, prenom } = event.data.recipient;
      const requests = (state.emails.get(key)?.requests ?? 0) + 1;
      return { ...next, emails: new Map(state.emails).set(key, { status: 'asked', requests, nom, prenom, requestedAt: event.data.requestedAt, sentAt: null }) };
    }
    case 'ReportEmailed': {
      const key = keyOf(event.data.recipient);
      const known = state.emails.get(key);
      return known ? { ...next, emails: new Map(state.emails).set(key, { ...known, sentAt: event.data.sentAt }) } : next;
    }
    case 'ReportEmailFailed': {
      const key = keyOf(event.data.recipient);
      const known = state.emails.get(key);
      return known ? { ...next, emails: new Map(state.emails).set(key, { ...known, status: 'failed' }) } : next;
    }
    default:
      return next;
  }
}
