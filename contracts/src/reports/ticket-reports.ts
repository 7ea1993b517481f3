import { z } from 'zod';

/**
 * GET /api/tickets/{id}/reports (not in the spec; added for issue 18): the
 * ticket's reports, one per visit, each with the e-mails asked for it, so the
 * ticket detail says who got a report and when, what is still being sent, and
 * why an e-mail failed, in words the user can act on.
 */

const isoInstant = z.iso.datetime({ offset: true });

export const REPORT_EMAIL_STATUSES = ['requested', 'sent', 'failed'] as const;
export type ReportEmailStatus = (typeof REPORT_EMAIL_STATUSES)[number];

export const REPORT_EMAIL_FAILURE_REASONS = ['address-refused', 'message-refused', 'server-unreachable', 'server-login', 'report-missing', 'other'] as const;
export type ReportEmailFailureReason = (typeof REPORT_EMAIL_FAILURE_REASONS)[number];

/** Longest failure text (report or e-mail) the read model keeps; the workers record at most this much. */
export const REPORT_ERROR_TEXT_MAX = 1000;
/** Longest part of the mail server's answer quoted to the user. */
const SERVER_REPLY_MAX = 160;

export const reportEmailFailureSchema = z.object({
  reason: z.enum(REPORT_EMAIL_FAILURE_REASONS),
  /** The French sentence the ticket detail shows. */
  message: z.string(),
});
export type ReportEmailFailure = z.infer<typeof reportEmailFailureSchema>;

export const ticketReportEmailSchema = z.object({
  /** The ReportEmailRequested event's id. */
  id: z.string(),
  email: z.string(),
  nom: z.string(),
  prenom: z.string(),
  status: z.enum(REPORT_EMAIL_STATUSES),
  requested_at: isoInstant,
  sent_at: isoInstant.nullable(),
  failed_at: isoInstant.nullable(),
  failure: reportEmailFailureSchema.nullable(),
});
export type TicketReportEmail = z.infer<typeof ticketReportEmailSchema>;

export const ticketReportSchema = z.object({
  /** The visit event's id (TicketClosed or ReinterventionRecorded). */
  id: z.string(),
  /** null: the closure's report; else the re-intervention's. */
  intervention_id: z.string().nullable(),
  status: z.enum(['requested', 'generated', 'failed']),
  filename: z.string().nullable(),
  generated_at: isoInstant.nullable(),
  /** Why the latest generation failed, in French (issue 32); null unless `status` is 'failed'. Absent from older servers. */
  failure: z.string().nullish(),
  /** The latest request per recipient, in the order they were asked. */
  emails: z.array(ticketReportEmailSchema),
});
export type TicketReport = z.infer<typeof ticketReportSchema>;

export const ticketReportsAnswerSchema = z.object({ reports: z.array(ticketReportSchema) });
export type TicketReportsAnswer = z.infer<typeof ticketReportsAnswerSchema>;

// ---------------------------------------------------------------------------
// Why an e-mail failed, in French
// ---------------------------------------------------------------------------

/** The mail server's own reply in a nodemailer error ("… rejected: 550 5.1.1 User unknown"), if any. */
function serverReply(error: string): string | null {
  const match = /\b([45]\d\d(?:[ -].*)?)$/.exec(error.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim());
  if (!match) return null;
  const reply = match[1]!.trim();
  return reply.length > SERVER_REPLY_MAX ? `${reply.slice(0, SERVER_REPLY_MAX - 1)}…` : reply;
}

function reasonOf(error: string, permanent: boolean): ReportEmailFailureReason {
  if (/not generated yet/i.test(error)) return 'report-missing';
  if (/invalid login|EAUTH|authenticat|\b53[05]\b/i.test(error)) return 'server-login';
  if (permanent) return /recipient|rcpt|mailbox|user unknown|address|no such user/i.test(error) ? 'address-refused' : 'message-refused';
  if (/ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ESOCKET|EHOSTUNREACH|timeout|greeting|closed unexpectedly/i.test(error)) return 'server-unreachable';
  return 'other';
}

/**
 * What the workers recorded in ReportEmailFailed (nodemailer's English text,
 * and whether the server refused for good) as a sentence the user can act on.
 * The server's reply is quoted for a refusal (it names the address problem);
 * connection details (host names, ports) are not shown.
 */
export function reportEmailFailure(error: string | null, permanent: boolean | null): ReportEmailFailure {
  const text = (error ?? '').slice(0, REPORT_ERROR_TEXT_MAX);
  const reason = reasonOf(text, permanent === true);
  const reply = serverReply(text);
  const quoted = reply ? ` (${reply})` : '';
  const lead = 'L’envoi du rapport a échoué : ';
  switch (reason) {
    case 'address-refused':
      return { reason, message: `${lead}adresse refusée par le serveur de messagerie${quoted}. Vérifiez l’adresse, puis renvoyez le rapport.` };
    case 'message-refused':
      return { reason, message: `${lead}message refusé par le serveur de messagerie${quoted}. Renvoyez le rapport ; si le refus se répète, prévenez l’administrateur.` };
    case 'server-unreachable':
      return { reason, message: `${lead}serveur de messagerie injoignable après plusieurs essais. Renvoyez le rapport plus tard ; si cela se répète, prévenez l’administrateur.` };
    case 'server-login':
      return { reason, message: `${lead}le serveur de messagerie a refusé l’identification de l’application. Prévenez l’administrateur, puis renvoyez le rapport.` };
    case 'report-missing':
      return { reason, message: `${lead}le rapport n’était pas encore disponible. Renvoyez-le une fois le rapport généré.` };
    case 'other':
      return { reason, message: `${lead}erreur du serveur de messagerie après plusieurs essais${quoted}. Renvoyez le rapport plus tard.` };
  }
}

// ---------------------------------------------------------------------------
// Why a report was not generated, in French (issue 32)
// ---------------------------------------------------------------------------

/** Longest part of a worker's own text quoted to the user. */
const GENERATION_ERROR_MAX = 200;

/**
 * The reason of a ReportGenerationFailed as the user reads it (« La génération
 * du rapport a échoué : <raison>. Vous pouvez la relancer. »). The workers'
 * texts are English for the known cases (read models late, ticket or visit not
 * found) and French for the render's own limits, which are quoted; any other
 * text stays in the workers' log.
 */
export function reportGenerationReason(error: string | null): string {
  const text = (error ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (/read models have not reached/i.test(text)) return 'les données du ticket n’étaient pas encore à jour';
  if (/not found|no matching visit|has no TicketOpened/i.test(text)) return 'le ticket ou sa visite est introuvable';
  if (/^Rendu interrompu|^Le moteur de rendu|^Moteur de rendu/.test(text)) return text.replace(/\.$/, '').slice(0, GENERATION_ERROR_MAX);
  // Anything else (Postgres, the file store…) may name hosts or paths: not shown, it is in the workers' log.
  return 'erreur technique (le détail est dans le journal des workers)';
}

/** « La génération du rapport a échoué : <raison>. Vous pouvez la relancer. » */
export function reportGenerationFailure(error: string | null): string {
  return `La génération du rapport a échoué : ${reportGenerationReason(error)}. Vous pouvez la relancer.`;
}
