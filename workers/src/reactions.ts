import { reportEventSchema, TICKET_STREAM_CATEGORY, ticketEventSchema, parseRecorded } from '@fsm/contracts';
import { categoryOf, type RecordedEvent } from '@fsm/eventstore';
import { SEND_REPORT_EMAIL_JOB } from './email/email-processor.js';
import type { JobRequest, Reaction } from './reactor.js';
import { RENDER_REPORT_JOB } from './reports/report-processor.js';

/*
 * Events to jobs. A report's id is the id of its visit event (TicketClosed or
 * ReinterventionRecorded), so the close itself and a later ReportRequested for
 * the same visit ask for the same job id: whichever comes first is enqueued,
 * the other is ignored by the queue, and the processor's "already generated"
 * check covers what the queue no longer remembers.
 */

function renderJob(reportId: string, ticketId: string, interventionId: string | null): JobRequest {
  return { queue: 'reports', name: RENDER_REPORT_JOB, jobId: `report-${reportId}`, data: { reportId, ticketId, interventionId } };
}

/**
 * The event parsed, or null when it does not fit its schema: a malformed
 * event asks for no job rather than stopping the reactor for every later one.
 */
function parsedOrNull<Schema extends Parameters<typeof parseRecorded>[0]>(schema: Schema, event: RecordedEvent): ReturnType<typeof parseRecorded<Schema>> | null {
  try {
    return parseRecorded(schema, event);
  } catch {
    return null;
  }
}

/** Closing a ticket or recording a re-intervention (both carry signatures) produces its report. */
export const reportOnVisit: Reaction = {
  name: 'reportOnVisit',
  handles: ['TicketClosed', 'ReinterventionRecorded'],
  jobsFor(event) {
    if (categoryOf(event.streamId) !== TICKET_STREAM_CATEGORY) return [];
    const ticketId = event.streamId.slice(TICKET_STREAM_CATEGORY.length + 1);
    if (event.type === 'TicketClosed') return [renderJob(event.id, ticketId, null)];
    const visit = parsedOrNull(ticketEventSchema, event);
    return visit?.type === 'ReinterventionRecorded' ? [renderJob(event.id, ticketId, visit.data.interventionId)] : [];
  },
};

/** The API asked for a visit's report (the close's reaction may already have produced it). */
export const reportOnRequest: Reaction = {
  name: 'reportOnRequest',
  handles: ['ReportRequested'],
  jobsFor(event) {
    const request = parsedOrNull(reportEventSchema, event);
    if (request?.type !== 'ReportRequested') return [];
    const { reportId, ticketId, interventionId } = request.data;
    const job = renderJob(reportId, ticketId, interventionId);
    // A request after a failed generation is a retry: a job of its own (the queue keeps the failed one).
    return [event.revision === 0 ? job : { ...job, jobId: `report-${reportId}-retry-${event.id}` }];
  },
};

/** One e-mail job per ReportEmailRequested (one recipient each), keyed by that event's id. */
export const emailOnRequest: Reaction = {
  name: 'emailOnRequest',
  handles: ['ReportEmailRequested'],
  jobsFor(event) {
    const request = parsedOrNull(reportEventSchema, event);
    if (request?.type !== 'ReportEmailRequested') return [];
    return [{ queue: 'emails', name: SEND_REPORT_EMAIL_JOB, jobId: `email-${event.id}`, data: { reportId: request.data.reportId, requestEventId: event.id } }];
  },
};

export const reportReactions: readonly Reaction[] = [reportOnVisit, reportOnRequest, emailOnRequest];
