import { UnrecoverableError, type Job } from 'bullmq';
import type pg from 'pg';
import {
  reportEventSchema,
  parseRecorded,
  reportEmailSubject,
  reportEmailText,
  reportStreamId,
  type ReportEmailFailedData,
  type ReportEmailRequestedData,
  type ReportEmailedData,
  type ReportEvent,
} from '@fsm/contracts';
import { readStreamOrEmpty, type BlobStore, type EventStore, type RecordedEvent } from '@fsm/eventstore';
import { outcomeEventId } from '../event-ids.js';
import { NotThisLogError } from '../own-log.js';
import { isLastAttempt } from '../reports/report-processor.js';
import { isPermanentMailError, type Mailer } from './mailer.js';
import { claimSentMail } from './sent-mails.js';

export const SEND_REPORT_EMAIL_JOB = 'send-report-email';

export interface EmailProcessorDeps {
  pool: pg.Pool;
  store: EventStore;
  blobs: BlobStore;
  mailer: Mailer;
  clock: () => Date;
}

export interface SendReportEmailTarget {
  reportId: string;
  /** The ReportEmailRequested event: one recipient. */
  requestEventId: string;
}

export type EmailOutcome = { status: 'sent' | 'already-sent'; messageId: string };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseSendReportEmailJob(data: unknown): SendReportEmailTarget | null {
  if (typeof data !== 'object' || data === null) return null;
  const { reportId, requestEventId } = data as Record<string, unknown>;
  if (typeof reportId !== 'string' || !GUID.test(reportId) || typeof requestEventId !== 'string' || !GUID.test(requestEventId)) return null;
  return { reportId, requestEventId };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

type Parsed = { recorded: RecordedEvent; event: ReportEvent };

const metadata = (target: SendReportEmailTarget) => ({ userId: null, userName: 'workers', correlationId: target.reportId, causationId: target.requestEventId });

async function recordSent(deps: EmailProcessorDeps, target: SendReportEmailTarget, recipient: string, messageId: string, transport: 'smtp' | 'outbox'): Promise<void> {
  const data: ReportEmailedData = { reportId: target.reportId, requestEventId: target.requestEventId, recipient, messageId, transport, sentAt: deps.clock().toISOString() };
  await deps.store.appendToStream(
    reportStreamId(target.reportId),
    [{ id: outcomeEventId('report-emailed', target.requestEventId), type: 'ReportEmailed', data, metadata: metadata(target) }],
    { expectedRevision: 'any' },
  );
}

async function recordFailed(deps: EmailProcessorDeps, target: SendReportEmailTarget, recipient: string, error: string, permanent: boolean): Promise<void> {
  const data: ReportEmailFailedData = { reportId: target.reportId, requestEventId: target.requestEventId, recipient, error: error.slice(0, 1000), permanent, failedAt: deps.clock().toISOString() };
  await deps.store.appendToStream(
    reportStreamId(target.reportId),
    [{ id: outcomeEventId('report-email-failed', target.requestEventId), type: 'ReportEmailFailed', data, metadata: metadata(target) }],
    { expectedRevision: 'any' },
  );
}

/**
 * Sends one report e-mail to one recipient, exactly once as far as SMTP
 * allows: the sent-mail row keyed by (request event, recipient) is checked
 * and claimed before sending and marked right after, and the outcome event's
 * id is derived from the request, so a second run sends and records nothing.
 */
export async function sendReportEmailJob(deps: EmailProcessorDeps, target: SendReportEmailTarget, lastAttempt: boolean): Promise<EmailOutcome> {
  const history: Parsed[] = (await readStreamOrEmpty(deps.store, reportStreamId(target.reportId))).map((recorded) => ({
    recorded,
    event: parseRecorded(reportEventSchema, recorded),
  }));
  const request = history.find((entry) => entry.recorded.id === target.requestEventId && entry.event.type === 'ReportEmailRequested');
  // The reactor enqueues after the request is committed: a request this log does not hold is another deployment's (issue 32).
  if (!request || request.event.type !== 'ReportEmailRequested') throw new NotThisLogError(`no ReportEmailRequested ${target.requestEventId} in report ${target.reportId}`);
  const asked: ReportEmailRequestedData = request.event.data;
  const recipient = asked.recipient.email;
  const recorded = history.find((entry) => entry.event.type === 'ReportEmailed' && entry.event.data.requestEventId === target.requestEventId);
  if (recorded && recorded.event.type === 'ReportEmailed') return { status: 'already-sent', messageId: recorded.event.data.messageId };
  const generated = [...history].reverse().find((entry) => entry.event.type === 'ReportGenerated');
  // The API only asks for e-mails of a generated report; wait for it otherwise (retried with backoff).
  if (!generated || generated.event.type !== 'ReportGenerated') throw new Error(`report ${target.reportId} is not generated yet`);

  const state = await claimSentMail(deps.pool, target.requestEventId, recipient);
  if (state.status === 'sent') {
    await recordSent(deps, target, recipient, state.messageId, deps.mailer.transport);
    return { status: 'already-sent', messageId: state.messageId };
  }
  if (state.status === 'failed') {
    await recordFailed(deps, target, recipient, state.error, true);
    throw new UnrecoverableError(state.error);
  }

  const { claim } = state;
  let messageId: string;
  let transport: 'smtp' | 'outbox';
  try {
    const pdf = await deps.blobs.read(generated.event.data.blobRef);
    const facts = { recipient: asked.recipient, ticketNumber: asked.ticketNumber, site: asked.site, installation: asked.installation, agenceNom: asked.agenceNom };
    const text = reportEmailText(facts);
    const sent = await deps.mailer.send({
      to: { address: recipient, name: [asked.recipient.prenom, asked.recipient.nom].filter((part) => part !== '').join(' ') },
      subject: reportEmailSubject(facts),
      text,
      html: `<div style="font-family:Arial,Helvetica,sans-serif;font-size:14px">${text
        .split('\n')
        .map((line) => (line === '' ? '<br>' : `<div>${escapeHtml(line)}</div>`))
        .join('')}</div>`,
      attachments: [{ filename: generated.event.data.filename, content: pdf, contentType: 'application/pdf' }],
      messageId: `<report-${target.requestEventId}@fsm-tickets>`,
      key: `${asked.ticketNumber}-${target.requestEventId}`,
    });
    messageId = sent.messageId;
    transport = sent.transport;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (isPermanentMailError(error)) {
      await claim.markFailed(message);
      await recordFailed(deps, target, recipient, message, true);
      throw new UnrecoverableError(message);
    }
    await claim.release();
    if (lastAttempt) await recordFailed(deps, target, recipient, message, false);
    throw error;
  }
  await claim.markSent(messageId, transport);
  await recordSent(deps, target, recipient, messageId, transport);
  return { status: 'sent', messageId };
}

/** The 'emails' queue's processor. */
export function emailsProcessor(deps: EmailProcessorDeps) {
  return async (job: Job): Promise<EmailOutcome> => {
    switch (job.name) {
      case SEND_REPORT_EMAIL_JOB: {
        const target = parseSendReportEmailJob(job.data);
        if (!target) throw new UnrecoverableError(`invalid ${SEND_REPORT_EMAIL_JOB} payload`);
        return sendReportEmailJob(deps, target, isLastAttempt(job));
      }
      default:
        throw new UnrecoverableError(`unknown emails job ${job.name}`);
    }
  };
}
