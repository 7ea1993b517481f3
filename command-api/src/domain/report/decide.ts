import type { ReportEmailRequestedData, ReportEvent, ReportRecipient, ReportRequestedData } from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolve, initialState, type ReportState } from './report.js';

/** Ask for the visit's PDF (the workers render it). */
interface RequestReport {
  type: 'RequestReport';
  data: ReportRequestedData;
}

/**
 * E-mail the generated report to these recipients; `facts` go in every request as they are now.
 * `resend`: addresses the user confirmed to send again (issue 32), with the number of requests
 * they saw for each (lower-cased address → count).
 */
interface RequestReportEmails {
  type: 'RequestReportEmails';
  data: { recipients: readonly ReportRecipient[]; facts: Omit<ReportEmailRequestedData, 'recipient'>; resend?: ReadonlyMap<string, number> };
}

export type ReportCommand = RequestReport | RequestReportEmails;

/**
 * One request per visit; another one only to retry a report whose generation
 * failed. Anything else is the same report: nothing to append.
 */
function requestReport(command: RequestReport, state: ReportState): ReportEvent[] {
  if (state.exists && !(state.lastGenerationFailed && !state.generated)) return [];
  return [{ type: 'ReportRequested', data: command.data }];
}

/**
 * Whether a recipient gets a new request: never asked, or their latest request
 * failed (the retry), or the user confirmed a re-send having seen as many
 * requests as there are (issue 32). A confirmation that is already out of date
 * (the same call retried, after it appended) asks nothing: never twice by accident.
 */
function mayAsk(recipient: ReportRecipient, state: ReportState, resend: ReadonlyMap<string, number> | undefined): boolean {
  const key = recipient.email.toLowerCase();
  const known = state.emails.get(key);
  if (!known || known.status === 'failed') return true;
  return resend?.get(key) === known.requests;
}

/** One request per recipient that may be asked (see `mayAsk`). */
function requestReportEmails(command: RequestReportEmails, state: ReportState): ReportEvent[] {
  return command.data.recipients
    .filter((recipient) => mayAsk(recipient, state, command.data.resend))
    .map((recipient) => ({
      type: 'ReportEmailRequested',
      data: { ...command.data.facts, recipient: { email: recipient.email, nom: recipient.nom, prenom: recipient.prenom } },
    }));
}

function decide(command: ReportCommand, state: ReportState): ReportEvent[] {
  switch (command.type) {
    case 'RequestReport':
      return requestReport(command, state);
    case 'RequestReportEmails':
      return requestReportEmails(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const reportDecider: Decider<ReportCommand, ReportState, ReportEvent> = { decide, evolve, initialState };
