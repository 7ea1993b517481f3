import { z } from 'zod';

/**
 * Events of a report stream (`report-<reportId>`). A report belongs to one
 * technician visit: the ticket's closure or one re-intervention. Its id IS the
 * id of that visit's event (`TicketClosed` or `ReinterventionRecorded`), so
 * every path that asks for the report of a visit (the reactor reacting to the
 * close, the UI calling POST /api/reports/{ticketId}.pdf, a retry, a replay)
 * names the same stream and the same job: one visit, one report.
 *
 * Outcomes are appended by the workers with ids derived from the job, so a job
 * that runs twice appends nothing the second time.
 */

const isoInstant = z.iso.datetime({ offset: true });
const uuid = z.guid();

export const REPORT_STREAM_CATEGORY = 'report';
export function reportStreamId(reportId: string): string {
  return `${REPORT_STREAM_CATEGORY}-${reportId}`;
}

const reportPersonSchema = z.object({ prenom: z.string(), nom: z.string() });

export const reportRequestedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  /** null: the closure's report; else the re-intervention's. */
  interventionId: uuid.nullable(),
  /** Names as the UI sent them (audit only: the PDF prints the facts of the log). */
  demandeur: reportPersonSchema.extend({ email: z.string() }).nullable(),
  technicien: reportPersonSchema.nullable(),
  requestedAt: isoInstant,
});

export const reportGeneratedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  interventionId: uuid.nullable(),
  /** Download name: `rapport-<num_chrono>[-intervention-<n>]-<id8>.pdf`; unique. */
  filename: z.string().min(5),
  /** File-store reference (`<sha256>.pdf`). */
  blobRef: z.string().min(5),
  /** SHA-256 (hex) of the PDF's bytes: the evidence a copy can be checked against. */
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  bytes: z.number().int().positive(),
  /** The agency template used; null for the built-in layout. */
  templateId: uuid.nullable(),
  templateName: z.string().nullable(),
  /** `{{...}}` tokens of the template the catalogue does not know (printed empty). */
  unknownVariables: z.array(z.string()),
  /** Why the built-in layout was used instead of the agency's template, if it was. */
  templateFallback: z.string().nullable(),
  generatedAt: isoInstant,
});

export const reportGenerationFailedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  interventionId: uuid.nullable(),
  error: z.string(),
  failedAt: isoInstant,
});

export const reportRecipientSchema = z.object({ email: z.string().min(3), nom: z.string(), prenom: z.string() });
export type ReportRecipient = z.infer<typeof reportRecipientSchema>;

/** One per recipient: the e-mail job and the sent-mail guard are keyed by this event's id. */
export const reportEmailRequestedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  recipient: reportRecipientSchema,
  /** Facts printed in the subject and body, as they were when asked. */
  ticketNumber: z.string(),
  site: z.string(),
  installation: z.string(),
  agenceNom: z.string().nullable(),
  requestedAt: isoInstant,
});

export const reportEmailedDataSchema = z.object({
  reportId: uuid,
  /** Id of the ReportEmailRequested event it answers. */
  requestEventId: uuid,
  recipient: z.string(),
  messageId: z.string(),
  /** 'smtp' (SMTP_URL) or 'outbox' (an .eml file under DATA_DIR/outbox). */
  transport: z.enum(['smtp', 'outbox']),
  sentAt: isoInstant,
});

export const reportEmailFailedDataSchema = z.object({
  reportId: uuid,
  requestEventId: uuid,
  recipient: z.string(),
  error: z.string(),
  /** true: refused by the server (5xx), never retried; false: retries exhausted. */
  permanent: z.boolean(),
  failedAt: isoInstant,
});

export const reportRequestedSchema = z.object({ type: z.literal('ReportRequested'), data: reportRequestedDataSchema });
export const reportGeneratedSchema = z.object({ type: z.literal('ReportGenerated'), data: reportGeneratedDataSchema });
export const reportGenerationFailedSchema = z.object({ type: z.literal('ReportGenerationFailed'), data: reportGenerationFailedDataSchema });
export const reportEmailRequestedSchema = z.object({ type: z.literal('ReportEmailRequested'), data: reportEmailRequestedDataSchema });
export const reportEmailedSchema = z.object({ type: z.literal('ReportEmailed'), data: reportEmailedDataSchema });
export const reportEmailFailedSchema = z.object({ type: z.literal('ReportEmailFailed'), data: reportEmailFailedDataSchema });

export const reportEventSchema = z.discriminatedUnion('type', [
  reportRequestedSchema,
  reportGeneratedSchema,
  reportGenerationFailedSchema,
  reportEmailRequestedSchema,
  reportEmailedSchema,
  reportEmailFailedSchema,
]);

export type ReportEvent = z.infer<typeof reportEventSchema>;
export type ReportEventType = ReportEvent['type'];
export type ReportRequestedData = z.infer<typeof reportRequestedDataSchema>;
export type ReportGeneratedData = z.infer<typeof reportGeneratedDataSchema>;
export type ReportGenerationFailedData = z.infer<typeof reportGenerationFailedDataSchema>;
export type ReportEmailRequestedData = z.infer<typeof reportEmailRequestedDataSchema>;
export type ReportEmailedData = z.infer<typeof reportEmailedDataSchema>;
export type ReportEmailFailedData = z.infer<typeof reportEmailFailedDataSchema>;

export const REPORT_EVENT_TYPES = [
  'ReportRequested',
  'ReportGenerated',
  'ReportGenerationFailed',
  'ReportEmailRequested',
  'ReportEmailed',
  'ReportEmailFailed',
] as const satisfies readonly ReportEventType[];
