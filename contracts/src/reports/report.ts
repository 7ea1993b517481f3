import { z } from 'zod';
import { hasHiddenCharacters } from '../hidden-characters.js';
import { SIGNATURE_MAX_DATA_URL_LENGTH } from '../tickets/ticket-constants.js';
import { TICKET_MESSAGES } from '../tickets/ticket-messages.js';
import { formatParisDateTime } from '../calendar/paris-time.js';

/*
 * The report aggregate's contract, in the order of every aggregate's file
 * (management/client.ts): the bodies and answers of the report calls
 * (tickets.md §7: POST /api/reports/{ticketId}.pdf?isReintervention=, GET
 * /api/reports/download/{filename}?token=, POST /api/reports/send-email), with
 * the names and texts they share, then the events of its stream.
 */

/** Texts not in the spec (the spec's own are in TICKET_MESSAGES). */
export const REPORT_MESSAGES = {
  notReady: 'Le rapport est en cours de génération. Merci de réessayer dans quelques instants.',
  failed: 'La génération du rapport a échoué.',
  notFound: 'Rapport introuvable.',
  invalidFilename: 'Nom de fichier de rapport invalide.',
  invalidDownloadUrl: 'Lien de téléchargement du rapport invalide.',
  noRecipient: 'Merci d’indiquer au moins un destinataire.',
  tooManyRecipients: 'Trop de destinataires (20 au maximum).',
  invalidEmail: TICKET_MESSAGES.invalidEmail,
  noReintervention: 'Aucune ré-intervention n’est enregistrée pour ce ticket.',
  invalidResend: 'Confirmation de renvoi invalide.',
} as const;

export const REPORT_MAX_RECIPIENTS = 20;

// ---------------------------------------------------------------------------
// File names
// ---------------------------------------------------------------------------

/** What a report file name may be: letters, digits, '-', '_', '.', ending in .pdf; never a path. */
export const REPORT_FILENAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*\.pdf$/;
export const REPORT_FILENAME_MAX = 160;

export function isReportFilename(value: string): boolean {
  return value.length <= REPORT_FILENAME_MAX && REPORT_FILENAME_PATTERN.test(value) && !value.includes('..');
}

/**
 * `rapport-LYO-2026-00042-1a2b3c4d.pdf`, or `rapport-LYO-2026-00042-intervention-2-1a2b3c4d.pdf`
 * for the second re-intervention. The report id's first 8 digits make it unique.
 */
export function reportFilename(numChrono: string, interventionOrdinal: number | null, reportId: string): string {
  const chrono = numChrono.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'ticket';
  const visit = interventionOrdinal === null ? '' : `-intervention-${interventionOrdinal}`;
  return `rapport-${chrono}${visit}-${reportId.replace(/-/g, '').slice(0, 8).toLowerCase()}.pdf`;
}

/** Where the report is downloaded from; the UI appends `?token=`. */
export function reportDownloadPath(filename: string): string {
  return `/api/reports/download/${encodeURIComponent(filename)}`;
}

/** The file name a download URL (absolute or not, with or without a query) points at, or null. */
export function reportFilenameFromDownloadUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url, 'http://localhost').pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/reports\/download\/([^/]+)$/.exec(path);
  if (!match) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  return isReportFilename(name) ? name : null;
}

// ---------------------------------------------------------------------------
// POST /api/reports/{ticketId}.pdf?isReintervention=
// ---------------------------------------------------------------------------

const flag = z.preprocess(
  (value) => (value === undefined || value === null || value === '' ? 'false' : String(value).toLowerCase()),
  z.enum(['true', 'false', '1', '0'], { error: 'isReintervention : true ou false attendu.' }).transform((value) => value === 'true' || value === '1'),
);

export const reportPdfQuerySchema = z.object({ isReintervention: flag });
export type ReportPdfQuery = z.infer<typeof reportPdfQuerySchema>;

/** The `{ticketId}.pdf` path segment. */
export const reportPdfParamsSchema = z.object({
  file: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.pdf$/i, { error: TICKET_MESSAGES.invalidId })
    .transform((file) => file.slice(0, -'.pdf'.length).toLowerCase()),
});

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: TICKET_MESSAGES.textTooLong })
    .refine((value) => !hasHiddenCharacters(value), { error: TICKET_MESSAGES.hiddenCharacters });
const optionalText = (max: number) => z.preprocess((value) => (value === null ? undefined : value), text(max).optional());

/**
 * The UI sends the signatures again and the names it shows. The report prints
 * what the log holds (the signatures recorded with the visit, the ticket's
 * requester, the visit's technician): these are accepted, bounded, and the
 * names are kept in ReportRequested for audit.
 */
export const reportPdfBodySchema = z
  .object({
    signature: z
      .object({
        client: optionalText(SIGNATURE_MAX_DATA_URL_LENGTH),
        technicien: optionalText(SIGNATURE_MAX_DATA_URL_LENGTH),
      })
      .nullish(),
    demandeur: z.object({ prenom: optionalText(255), nom: optionalText(255), email: optionalText(255) }).nullish(),
    technicien: z.object({ prenom: optionalText(255), nom: optionalText(255) }).nullish(),
  })
  .nullish()
  .transform((body) => body ?? {});
export type ReportPdfBody = z.infer<typeof reportPdfBodySchema>;

export const reportPdfResponseSchema = z.object({ success: z.literal(true), downloadUrl: z.string(), filename: z.string() });
export type ReportPdfResponse = z.infer<typeof reportPdfResponseSchema>;

// ---------------------------------------------------------------------------
// GET /api/reports/download/{filename}?token=
// ---------------------------------------------------------------------------

export const reportDownloadParamsSchema = z.object({
  filename: z.string().refine(isReportFilename, { error: REPORT_MESSAGES.invalidFilename }),
});
export const reportDownloadQuerySchema = z.object({ token: z.string().max(4096).optional() });

// ---------------------------------------------------------------------------
// POST /api/reports/send-email
// ---------------------------------------------------------------------------

export const reportEmailRecipientBodySchema = z.object({
  email: z
    .string({ error: REPORT_MESSAGES.invalidEmail })
    .trim()
    .toLowerCase()
    .max(254, { error: REPORT_MESSAGES.invalidEmail })
    .pipe(z.email({ error: REPORT_MESSAGES.invalidEmail })),
  nom: optionalText(255).transform((value) => value ?? ''),
  prenom: optionalText(255).transform((value) => value ?? ''),
});

export const sendReportEmailBodySchema = z.object({
  recipients: z
    .array(reportEmailRecipientBodySchema, { error: REPORT_MESSAGES.noRecipient })
    .min(1, { error: REPORT_MESSAGES.noRecipient })
    .max(REPORT_MAX_RECIPIENTS, { error: REPORT_MESSAGES.tooManyRecipients }),
  /** Shown by the UI; the e-mail prints the ticket's own facts. */
  ticketNumber: optionalText(100),
  ticketInfo: z.object({ site: optionalText(255), installation: optionalText(255) }).nullish(),
  downloadUrl: z
    .string({ error: REPORT_MESSAGES.invalidDownloadUrl })
    .max(2048, { error: REPORT_MESSAGES.invalidDownloadUrl })
    .refine((url) => reportFilenameFromDownloadUrl(url) !== null, { error: REPORT_MESSAGES.invalidDownloadUrl }),
  /**
   * Issue 32: an explicit re-send to addresses that already got the report
   * (a client who lost the e-mail). Each entry confirms one address and says how
   * many requests the user saw for it (`knownRequests` of the answer's
   * `alreadySent`): the address gets one more request only while that is still
   * the count, so a retried call (a double click, a network retry) sends once.
   * Opt-in: without it an address already asked is not sent again.
   */
  resend: z
    .array(
      z.object({
        email: reportEmailRecipientBodySchema.shape.email,
        knownRequests: z.number({ error: REPORT_MESSAGES.invalidResend }).int({ error: REPORT_MESSAGES.invalidResend }).min(1, { error: REPORT_MESSAGES.invalidResend }),
      }),
      { error: REPORT_MESSAGES.invalidResend },
    )
    .max(REPORT_MAX_RECIPIENTS, { error: REPORT_MESSAGES.tooManyRecipients })
    .optional(),
});
export type SendReportEmailBody = z.infer<typeof sendReportEmailBodySchema>;

/** An address the call did not send to because it already got (or is getting) the report. */
export const reportAlreadySentSchema = z.object({
  email: z.string(),
  nom: z.string(),
  prenom: z.string(),
  /** 'requested': being sent; 'sent': the mail server accepted it. */
  status: z.enum(['requested', 'sent']),
  requestedAt: z.iso.datetime({ offset: true }),
  sentAt: z.iso.datetime({ offset: true }).nullable(),
  /** How many times this report was asked for this address: send it back in `resend` to send once more. */
  knownRequests: z.number().int().positive(),
  /** « Déjà envoyé le 12/11/2026 à 14:05 à x@y.fr. » (Paris time). */
  message: z.string(),
});
export type ReportAlreadySent = z.infer<typeof reportAlreadySentSchema>;

export const sendReportEmailResponseSchema = z.object({
  success: z.literal(true),
  /** Recipients newly queued by this call. */
  queued: z.number().int().nonnegative(),
  /** Recipients this report was already sent (or queued) to: not sent twice. */
  alreadyRequested: z.number().int().nonnegative(),
  /** Those recipients, with when they were sent it (issue 32); confirm with `resend` to send again. */
  alreadySent: z.array(reportAlreadySentSchema).default([]),
});
export type SendReportEmailResponse = z.infer<typeof sendReportEmailResponseSchema>;

/** « Déjà envoyé le 12/11/2026 à 14:05 à x@y.fr. », or « En cours d’envoi à … (demandé le …). » */
export function reportAlreadySentMessage(sent: { email: string; status: 'requested' | 'sent'; requestedAt: string; sentAt: string | null }): string {
  if (sent.status === 'sent') return `Déjà envoyé le ${formatParisDateTime(sent.sentAt ?? sent.requestedAt, ' à ')} à ${sent.email}.`;
  return `Envoi en cours à ${sent.email} (demandé le ${formatParisDateTime(sent.requestedAt, ' à ')}).`;
}

// ---------------------------------------------------------------------------
// The e-mail (French)
// ---------------------------------------------------------------------------

export interface ReportEmailFacts {
  recipient: { nom: string; prenom: string };
  ticketNumber: string;
  site: string;
  installation: string;
  agenceNom: string | null;
}

export function reportEmailSubject(facts: Pick<ReportEmailFacts, 'ticketNumber'>): string {
  return `Rapport d'intervention – ticket ${facts.ticketNumber}`;
}

export function reportEmailText(facts: ReportEmailFacts): string {
  const name = [facts.recipient.prenom, facts.recipient.nom].filter((part) => part.trim() !== '').join(' ');
  return [
    name ? `Bonjour ${name},` : 'Bonjour,',
    '',
    `Veuillez trouver ci-joint le rapport d'intervention du ticket ${facts.ticketNumber}.`,
    '',
    `Site : ${facts.site}`,
    `Installation : ${facts.installation}`,
    '',
    'Cordialement,',
    facts.agenceNom ?? 'Le service maintenance',
  ].join('\n');
}

// ===========================================================================
// Events
// ===========================================================================

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
