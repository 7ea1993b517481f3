import type { RecordedEvent } from '@fsm/eventstore';
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

const TICKET_PREFIX = 'ticket-';

function renderJob(reportId: string, ticketId: string, interventionId: string | null): JobRequest {
  return { queue: 'reports', name: RENDER_REPORT_JOB, jobId: `report-${reportId}`, data: { reportId, ticketId, interventionId } };
}

function field(event: RecordedEvent, name: string): unknown {
  return typeof event.data === 'object' && event.data !== null ? (event.data as Record<string, unknown>)[name] : undefined;
}

/** Closing a ticket or recording a re-intervention (both carry signatures) produces its report. */
export const reportOnVisit: Reaction = {
  handles: ['TicketClosed', 'ReinterventionRecorded'],
  jobsFor(event) {
    if (!event.streamId.startsWith(TICKET_PREFIX)) return [];
    const ticketId = event.streamId.slice(TICKET_PREFIX.length);
    const interventionId = event.type === 'ReinterventionRecorded' ? field(event, 'interventionId') : null;
    if (interventionId !== null && typeof interventionId !== 'string') return [];
    return [renderJob(event.id, ticketId, interventionId)];
  },
};

/** The API asked for a visit's report (the close's reaction may already have produced it). */
export const reportOnRequest: Reaction = {
  handles: ['ReportRequested'],
  jobsFor(event) {
    const reportId = field(event, 'reportId');
    const ticketId = field(event, 'ticketId');
    const interventionId = field(event, 'interventionId') ?? null;
    if (typeof reportId !== 'string' || typeof ticketId !== 'string' || (interventionId !== null && typeof interventionId !== 'string')) return [];
    const job = renderJob(reportId, ticketId, interventionId);
    // A request after a failed generation is a retry: a job of its own (the queue keeps the failed one).
    return [event.revision === 0 ? job : { ...job, jobId: `report-${reportId}-retry-${event.id}` }];
  },
};

/** One e-mail job per ReportEmailRequested (one recipient each), keyed by that event's id. */
export const emailOnRequest: Reaction = {
  handles: ['ReportEmailRequested'],
  jobsFor(event) {
    const reportId = field(event, 'reportId');
    if (typeof reportId !== 'string') return [];
    return [{ queue: 'emails', name: SEND_REPORT_EMAIL_JOB, jobId: `email-${event.id}`, data: { reportId, requestEventId: event.id } }];
  },
};

export const reportReactions: readonly Reaction[] = [reportOnVisit, reportOnRequest, emailOnRequest];
