import type { ReportEmailRequestedData, ReportEvent, ReportRecipient, ReportRequestedData } from '@fsm/contracts';
import type { Decider } from '../decider.js';
import { evolve, initialState, type ReportState } from './report.js';

/** Ask for the visit's PDF (the workers render it). */
interface RequestReport {
  type: 'RequestReport';
  data: ReportRequestedData;
}

/** E-mail the generated report to these recipients; `facts` go in every request as they are now. */
interface RequestReportEmails {
  type: 'RequestReportEmails';
  data: { recipients: readonly ReportRecipient[]; facts: Omit<ReportEmailRequestedData, 'recipient'> };
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

/** The recipients a report may not be e-mailed to again (lower-cased): a pending or sent request. */
function recipientsAlreadyAsked(state: ReportState): Set<string> {
  return new Set([...state.emails].filter(([, status]) => status === 'asked').map(([email]) => email.toLowerCase()));
}

/** One request per recipient not already asked; a recipient whose latest request failed may be asked again (the retry). */
function requestReportEmails(command: RequestReportEmails, state: ReportState): ReportEvent[] {
  const asked = recipientsAlreadyAsked(state);
  return command.data.recipients
    .filter((recipient) => !asked.has(recipient.email))
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
