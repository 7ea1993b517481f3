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

const ReportPersonSchema = z.object({ prenom: z.string(), nom: z.string() });

export const ReportRequestedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  /** null: the closure's report; else the re-intervention's. */
  interventionId: uuid.nullable(),
  /** Names as the UI sent them (audit only: the PDF prints the facts of the log). */
  demandeur: ReportPersonSchema.extend({ email: z.string() }).nullable(),
  technicien: ReportPersonSchema.nullable(),
  requestedAt: isoInstant,
});

export const ReportGeneratedDataSchema = z.object({
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

export const ReportGenerationFailedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  interventionId: uuid.nullable(),
  error: z.string(),
  failedAt: isoInstant,
});

export const ReportRecipientSchema = z.object({ email: z.string().min(3), nom: z.string(), prenom: z.string() });
export type ReportRecipient = z.infer<typeof ReportRecipientSchema>;

/** One per recipient: the e-mail job and the sent-mail guard are keyed by this event's id. */
export const ReportEmailRequestedDataSchema = z.object({
  reportId: uuid,
  ticketId: uuid,
  recipient: ReportRecipientSchema,
  /** Facts printed in the subject and body, as they were when asked. */
  ticketNumber: z.string(),
  site: z.string(),
  installation: z.string(),
  agenceNom: z.string().nullable(),
  requestedAt: isoInstant,
});

export const ReportEmailedDataSchema = z.object({
  reportId: uuid,
  /** Id of the ReportEmailRequested event it answers. */
  requestEventId: uuid,
  recipient: z.string(),
  messageId: z.string(),
  /** 'smtp' (SMTP_URL) or 'outbox' (an .eml file under DATA_DIR/outbox). */
  transport: z.enum(['smtp', 'outbox']),
  sentAt: isoInstant,
});

export const ReportEmailFailedDataSchema = z.object({
  reportId: uuid,
  requestEventId: uuid,
  recipient: z.string(),
  error: z.string(),
  /** true: refused by the server (5xx), never retried; false: retries exhausted. */
  permanent: z.boolean(),
  failedAt: isoInstant,
});

export const ReportRequestedSchema = z.object({ type: z.literal('ReportRequested'), data: ReportRequestedDataSchema });
export const ReportGeneratedSchema = z.object({ type: z.literal('ReportGenerated'), data: ReportGeneratedDataSchema });
export const ReportGenerationFailedSchema = z.object({ type: z.literal('ReportGenerationFailed'), data: ReportGenerationFailedDataSchema });
export const ReportEmailRequestedSchema = z.object({ type: z.literal('ReportEmailRequested'), data: ReportEmailRequestedDataSchema });
export const ReportEmailedSchema = z.object({ type: z.literal('ReportEmailed'), data: ReportEmailedDataSchema });
export const ReportEmailFailedSchema = z.object({ type: z.literal('ReportEmailFailed'), data: ReportEmailFailedDataSchema });

export const ReportEventSchema = z.discriminatedUnion('type', [
  ReportRequestedSchema,
  ReportGeneratedSchema,
  ReportGenerationFailedSchema,
  ReportEmailRequestedSchema,
  ReportEmailedSchema,
  ReportEmailFailedSchema,
]);

export type ReportEvent = z.infer<typeof ReportEventSchema>;
export type ReportEventType = ReportEvent['type'];
export type ReportRequestedData = z.infer<typeof ReportRequestedDataSchema>;
export type ReportGeneratedData = z.infer<typeof ReportGeneratedDataSchema>;
export type ReportGenerationFailedData = z.infer<typeof ReportGenerationFailedDataSchema>;
export type ReportEmailRequestedData = z.infer<typeof ReportEmailRequestedDataSchema>;
export type ReportEmailedData = z.infer<typeof ReportEmailedDataSchema>;
export type ReportEmailFailedData = z.infer<typeof ReportEmailFailedDataSchema>;

export const REPORT_EVENT_TYPES = [
  'ReportRequested',
  'ReportGenerated',
  'ReportGenerationFailed',
  'ReportEmailRequested',
  'ReportEmailed',
  'ReportEmailFailed',
] as const satisfies readonly ReportEventType[];
