import {
  IllegalStateError,
  NotFoundError,
  REPORT_MESSAGES,
  reportEventSchema,
  TICKET_MESSAGES,
  ticketEventSchema,
  parseRecorded,
  reportAlreadySentMessage,
  reportStreamId,
  ticketStreamId,
  type ReportAlreadySent,
  type ReportPdfBody,
  type ReportRecipient,
  type ReportRequestedData,
  type Ticket,
} from '@fsm/contracts';
import { ConcurrencyError, readStreamOrEmpty, type RecordedEvent } from '@fsm/eventstore';
import { findAgence } from '@fsm/projections';
import { reportDecider, type ReportState } from '../../domain/report/index.js';
import { commandHandler, type CommandCaller } from '../execute.js';

/*
 * Reports (tickets.md §7): one stream per visit's report, `report-<id>`, whose
 * id is the visit event's id. The workers append its outcomes (generated,
 * failed, e-mailed) to the same stream, so an append here can meet theirs.
 */

const runReportCommand = commandHandler({ decider: reportDecider, streamOf: reportStreamId, events: reportEventSchema });

/** The visit a report belongs to: the closure, or the latest re-intervention. Its event id is the report's id. */
function visitOf(history: readonly RecordedEvent[], isReintervention: boolean): { reportId: string; interventionId: string | null } {
  if (!isReintervention) {
    const closed = history.find((recorded) => recorded.type === 'TicketClosed');
    if (!closed) throw new IllegalStateError(TICKET_MESSAGES.reportNeedsClosedTicket);
    return { reportId: closed.id, interventionId: null };
  }
  const latest = [...history].reverse().find((recorded) => recorded.type === 'ReinterventionRecorded');
  const visit = latest ? parseRecorded(ticketEventSchema, latest) : null;
  if (!latest || visit?.type !== 'ReinterventionRecorded') throw new NotFoundError(REPORT_MESSAGES.noReintervention);
  return { reportId: latest.id, interventionId: visit.data.interventionId };
}

const trimmed = (value: string | undefined) => value ?? '';

function requestedData(body: ReportPdfBody, target: { reportId: string; interventionId: string | null }, ticketId: string, at: Date): ReportRequestedData {
  return {
    reportId: target.reportId,
    ticketId,
    interventionId: target.interventionId,
    demandeur: body.demandeur ? { prenom: trimmed(body.demandeur.prenom), nom: trimmed(body.demandeur.nom), email: trimmed(body.demandeur.email) } : null,
    technicien: body.technicien ? { prenom: trimmed(body.technicien.prenom), nom: trimmed(body.technicien.nom) } : null,
    requestedAt: at.toISOString(),
  };
}

/**
 * POST /api/reports/{ticketId}.pdf: asks for the visit's report (once per
 * visit, again after a failed generation). Answers the report's id, which the
 * route waits on.
 */
export async function handleRequestReport(
  caller: CommandCaller,
  input: { ticketId: string; body: ReportPdfBody; isReintervention: boolean },
): Promise<{ reportId: string }> {
  const target = visitOf(await readStreamOrEmpty(caller.context.store, ticketStreamId(input.ticketId)), input.isReintervention);
  try {
    await runReportCommand(caller, target.reportId, { type: 'RequestReport', data: requestedData(input.body, target, input.ticketId, caller.now) });
  } catch (error) {
    // Someone (the workers reacting to the close, a double click) got there first: same report.
    if (!(error instanceof ConcurrencyError)) throw error;
  }
  return { reportId: target.reportId };
}

/** How many times an e-mail request is decided again when the workers appended meanwhile. */
const EMAIL_REQUEST_ATTEMPTS = 5;

/** The report's state as its stream tells it now. */
async function reportState(caller: CommandCaller, reportId: string): Promise<ReportState> {
  const history = await readStreamOrEmpty(caller.context.store, reportStreamId(reportId));
  return history.map((recorded) => parseRecorded(reportEventSchema, recorded)).reduce(reportDecider.evolve, reportDecider.initialState);
}

/** The recipients this call did not send to, with when they were sent the report (issue 32). */
function alreadySent(state: ReportState, recipients: readonly ReportRecipient[], queued: ReadonlySet<string>): ReportAlreadySent[] {
  return recipients.flatMap((recipient) => {
    const key = recipient.email.toLowerCase();
    const known = state.emails.get(key);
    if (queued.has(key) || !known || known.status !== 'asked') return [];
    const status = known.sentAt ? ('sent' as const) : ('requested' as const);
    const sent = { email: recipient.email, status, requestedAt: known.requestedAt, sentAt: known.sentAt };
    return [{ ...sent, nom: known.nom, prenom: known.prenom, knownRequests: known.requests, message: reportAlreadySentMessage(sent) }];
  });
}

/**
 * POST /api/reports/send-email: one request per recipient (an address given
 * twice counts once) not already asked, or whose re-send the user confirmed
 * (`resend`, issue 32); the facts of the ticket as they are now. The answer
 * names the addresses not sent to, with when they got the report.
 */
export async function handleRequestReportEmails(
  caller: CommandCaller,
  input: {
    reportId: string;
    ticket: Pick<Ticket, 'id' | 'agence_id' | 'num_chrono' | 'site_nom' | 'installation_nom'>;
    recipients: readonly ReportRecipient[];
    resend?: readonly { email: string; knownRequests: number }[];
  },
): Promise<{ queued: number; alreadyRequested: number; alreadySent: ReportAlreadySent[] }> {
  const { ticket } = input;
  const agence = await findAgence(caller.db, ticket.agence_id);
  const recipients = [...new Map(input.recipients.map((recipient) => [recipient.email.toLowerCase(), recipient])).values()];
  const resend = input.resend ? new Map(input.resend.map((entry) => [entry.email.toLowerCase(), entry.knownRequests])) : undefined;
  const facts = {
    reportId: input.reportId,
    ticketId: ticket.id,
    ticketNumber: ticket.num_chrono,
    site: ticket.site_nom,
    installation: ticket.installation_nom,
    agenceNom: agence?.nom ?? null,
    requestedAt: caller.now.toISOString(),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const { events } = await runReportCommand(caller, input.reportId, { type: 'RequestReportEmails', data: { recipients, facts, ...(resend ? { resend } : {}) } });
      const queued = new Set(events.flatMap((event) => (event.type === 'ReportEmailRequested' ? [event.data.recipient.email.toLowerCase()] : [])));
      const state = queued.size === recipients.length ? null : await reportState(caller, input.reportId);
      return { queued: events.length, alreadyRequested: recipients.length - events.length, alreadySent: state ? alreadySent(state, recipients, queued) : [] };
    } catch (error) {
      // The workers append outcomes to the same stream: decide again on what they wrote.
      if (!(error instanceof ConcurrencyError) || attempt >= EMAIL_REQUEST_ATTEMPTS) throw error;
    }
  }
}
