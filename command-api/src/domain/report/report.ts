import type { ReportEvent } from '@fsm/contracts';

/**
 * A visit's report as its stream tells it: whether it was asked for, whether
 * a PDF exists, whether the latest thing that happened is a failed generation,
 * and, per recipient, whether their latest e-mail request failed.
 */
export interface ReportState {
  /** Any event at all: the report was asked for (by the API or the close's reaction). */
  exists: boolean;
  generated: boolean;
  lastGenerationFailed: boolean;
  /**
   * Per recipient e-mail as it was asked: 'asked' while the latest request is
   * pending or sent, 'failed' once it failed. A recipient gets a new request
   * only after the previous one failed, so a failure always answers the
   * recipient's latest request.
   */
  emails: ReadonlyMap<string, 'asked' | 'failed'>;
}

export const initialState: ReportState = { exists: false, generated: false, lastGenerationFailed: false, emails: new Map() };

export function evolve(state: ReportState, event: ReportEvent): ReportState {
  const next: ReportState = { ...state, exists: true, lastGenerationFailed: event.type === 'ReportGenerationFailed' };
  switch (event.type) {
    case 'ReportGenerated':
      return { ...next, generated: true };
    case 'ReportEmailRequested':
      return { ...next, emails: new Map(state.emails).set(event.data.recipient.email, 'asked') };
    case 'ReportEmailFailed':
      return { ...next, emails: new Map(state.emails).set(event.data.recipient, 'failed') };
    default:
      return next;
  }
}
