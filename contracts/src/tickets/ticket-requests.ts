import { z } from 'zod';
import {
  SIGNATURE_MAX_DATA_URL_LENGTH,
  PASSWORD_MAX_LENGTH,
  TICKET_ARRIVAL_STATES,
  TICKET_DEFAULT_TRAVEL_TIME,
  TICKET_DEPARTURE_STATES,
  TICKET_STATUSES,
  TICKET_TEXT_MAX,
  TICKET_TRAVEL_TIME_PATTERN,
} from './ticket-constants.js';
import { hasHiddenCharacters } from '../hidden-characters.js';
import { readTicketDate, readTicketDateTime, readTicketRegistration, type TicketDateReading } from './ticket-dates.js';
import { LOGIN_MESSAGES, PASSWORD_MESSAGES, TICKET_MESSAGES as M } from './ticket-messages.js';
import { isPasswordAcceptable } from './password-criteria.js';

/**
 * Bodies and queries of the ticket routes of spec §7, field names as the spec
 * spells them. The server parses every request with these (400 with the
 * French message of the first issue) and the web forms validate with the same
 * schemas. Multipart fields and query strings arrive as strings, so flags and
 * numbers are coerced here and an empty field counts as absent.
 */

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;
/** A file name, never a path: the report name ends up in a download URL and on disk. */
const REPORT_FILE_NAME = /^(?!\.{1,2}$)[^/\\\u0000-\u001f]+$/;

/** An empty form field, an empty query value or a JSON null means "not given". */
function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

/** Ids are UUIDs (streams are `ticket-<uuid>`, `client-<uuid>`, ...). */
export const ticketEntityIdSchema = z.string({ error: M.invalidId }).trim().regex(GUID, { error: M.invalidId });

function requiredId(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .regex(GUID, { error: M.invalidId });
}

function optionalId() {
  return z.preprocess(blankToUndefined, ticketEntityIdSchema.optional());
}

/** Every text field that is stored: bidi overrides and other invisible controls are refused (hidden-characters.ts). */
const withoutHiddenCharacters = [(value: string) => !hasHiddenCharacters(value), { error: M.hiddenCharacters }] as const;

/**
 * A text that is only looked up, never stored (login, QR key, captcha proof):
 * one with odd characters is simply not found, and keeps the answer the spec
 * gives for that (invalid link, invalid credentials).
 */
function lookupText(message: string, max: number) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: M.textTooLong });
}

function requiredText(message: string, max: number) {
  return lookupText(message, max).refine(...withoutHiddenCharacters);
}

function optionalText(max: number) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: M.textTooLong }).trim().max(max, { error: M.textTooLong }).refine(...withoutHiddenCharacters).optional(),
  );
}

function requiredEmail(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(TICKET_TEXT_MAX.email, { error: M.invalidEmail })
    .pipe(z.email({ error: M.invalidEmail }));
}

/** `1`, `true`, `on` (a checked checkbox) and their opposites, as strings or booleans. */
function optionalFlag() {
  return z.preprocess((value) => {
    const v = blankToUndefined(value);
    if (v === true || v === 1 || v === '1' || v === 'true' || v === 'on') return true;
    if (v === false || v === 0 || v === '0' || v === 'false' || v === 'off') return false;
    return v;
  }, z.boolean({ error: M.invalidTicketBody }).optional());
}

/** The French message of a date the ticket parsers refused. */
function dateRefusal(reading: Extract<TicketDateReading, { ok: false }>, invalidMessage: string = M.invalidDate): string {
  return reading.reason === 'out_of_range' ? M.dateOutOfRange : invalidMessage;
}

/** A typed date through one of the ticket parsers: its normalised value, or the parser's refusal as the issue. */
function ticketDate(read: (value: string) => TicketDateReading) {
  return z.string({ error: M.invalidDate }).transform((value, ctx) => {
    const reading = read(value.trim());
    if (reading.ok) return reading.value;
    ctx.addIssue({ code: 'custom', message: dateRefusal(reading) });
    return z.NEVER;
  });
}

/** A local French date-time or a zoned ISO string, normalised to a UTC ISO instant. */
function optionalInstant() {
  return z.preprocess(blankToUndefined, ticketDate(readTicketDateTime).optional());
}

function optionalDay() {
  return z.preprocess(blankToUndefined, ticketDate(readTicketDate).optional());
}

function pngSignature(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .max(SIGNATURE_MAX_DATA_URL_LENGTH, { error: M.invalidSignature, abort: true })
    .regex(PNG_DATA_URL, { error: M.invalidSignature });
}

const nomRapport = z
  .string({ error: M.nomRapportRequired })
  .trim()
  .min(1, { error: M.nomRapportRequired, abort: true })
  .max(TICKET_TEXT_MAX.nomRapport, { error: M.invalidNomRapport })
  .regex(REPORT_FILE_NAME, { error: M.invalidNomRapport })
  .refine(...withoutHiddenCharacters);

// ---------------------------------------------------------------------------
// Auth (spec §7: POST /api/login, POST /api/utilisateurs/change-password)
// ---------------------------------------------------------------------------

export const loginBodySchema = z.object({
  email: lookupText(LOGIN_MESSAGES.missingCredentials, TICKET_TEXT_MAX.email),
  // Never trimmed: a space is a legitimate password character.
  motdepasse: z
    .string({ error: LOGIN_MESSAGES.missingCredentials })
    .min(1, { error: LOGIN_MESSAGES.missingCredentials })
    .max(PASSWORD_MAX_LENGTH, { error: LOGIN_MESSAGES.invalidCredentials }),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

function requiredPassword() {
  return z
    .string({ error: PASSWORD_MESSAGES.allFieldsRequired })
    .min(1, { error: PASSWORD_MESSAGES.allFieldsRequired, abort: true })
    .max(PASSWORD_MAX_LENGTH, { error: PASSWORD_MESSAGES.criteriaNotMet });
}

const newPassword = requiredPassword().refine(isPasswordAcceptable, { error: PASSWORD_MESSAGES.criteriaNotMet });

export const changePasswordBodySchema = z.object({
  oldPassword: requiredPassword(),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** The password dialog (spec §2, §5): the body plus the confirmation, which never leaves the browser. */
export const changePasswordFormSchema = z
  .object({ oldPassword: requiredPassword(), newPassword, confirmation: requiredPassword() })
  .refine((form) => form.confirmation === form.newPassword, {
    error: PASSWORD_MESSAGES.confirmationMismatch,
    path: ['confirmation'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

// ---------------------------------------------------------------------------
// Ticket creation
// ---------------------------------------------------------------------------

const requesterFields = {
  nom: requiredText(M.requiredFields, TICKET_TEXT_MAX.shortText),
  prenom: requiredText(M.requiredFields, TICKET_TEXT_MAX.shortText),
  email: requiredEmail(M.requiredFields),
  telephone: requiredText(M.requiredFields, TICKET_TEXT_MAX.telephone),
  probleme: requiredText(M.requiredFields, TICKET_TEXT_MAX.probleme),
};

/**
 * Text fields of `POST /api/tickets/manual/ticket-create` (multipart; the
 * photo is a file part checked by content). Staff and telesurveillance use it.
 * `date_enregistrement` + `heure_enregistrement` are French local time; both
 * or neither (neither = now). `date_cloture` is accepted for compatibility with
 * the original form but ignored: closing needs a constat and signatures.
 * `urgent` is optional: staff may flag the ticket at creation.
 */
export const manualTicketCreateBodySchema = z
  .object({
    installation_id: requiredId(M.requiredFields),
    ...requesterFields,
    date_enregistrement: z.preprocess(blankToUndefined, z.string({ error: M.invalidRegistrationDateTime }).optional()),
    heure_enregistrement: z.preprocess(blankToUndefined, z.string({ error: M.invalidRegistrationDateTime }).optional()),
    id_technicien: optionalId(),
    remarque_tech: optionalText(TICKET_TEXT_MAX.remarque),
    date_cloture: optionalText(TICKET_TEXT_MAX.shortText),
    urgent: optionalFlag(),
  })
  .superRefine((body, ctx) => {
    const { date_enregistrement: date, heure_enregistrement: time } = body;
    if (date === undefined && time === undefined) return;
    const reading = date === undefined || time === undefined ? null : readTicketRegistration(date.trim(), time.trim());
    if (reading === null || !reading.ok) {
      const message = reading === null ? M.invalidRegistrationDateTime : dateRefusal(reading, M.invalidRegistrationDateTime);
      ctx.addIssue({ code: 'custom', message, path: ['date_enregistrement'] });
    }
  });
export type ManualTicketCreateBody = z.infer<typeof manualTicketCreateBodySchema>;
export type ManualTicketCreateInput = z.input<typeof manualTicketCreateBodySchema>;

/**
 * The telesurveillance form (spec §2, §5): the cascade's agency, client and site
 * are required on screen; only installation and contact fields are sent.
 */
export const telesurveillanceTicketFormSchema = z.object({
  agence_id: requiredId(M.requiredFields),
  client_id: requiredId(M.requiredFields),
  site_id: requiredId(M.requiredFields),
  installation_id: requiredId(M.requiredFields),
  ...requesterFields,
});
export type TelesurveillanceTicketForm = z.infer<typeof telesurveillanceTicketFormSchema>;

/**
 * What a télésurveillance account may send to the manual creation route: its
 * form's fields (the photo is the file part). Registration date and time,
 * technician, urgency, `remarque_tech`… are staff's: backdating a ticket or
 * writing a technician's remark is not the remote operator's to do.
 */
export const TELESURVEILLANCE_TICKET_FIELDS: readonly string[] = Object.keys(telesurveillanceTicketFormSchema.shape);

/**
 * Text fields of `POST /api/public/ticket-create` (multipart, no token). The
 * QR `key` comes first so a request without one reports the invalid link.
 * `g-recaptcha-response` keeps the spec's name; it carries the captcha's
 * proof (a self-hosted proof-of-work) and is checked by the server.
 */
export const publicTicketCreateBodySchema = z.object({
  key: lookupText(M.invalidLink, TICKET_TEXT_MAX.shortText),
  ...requesterFields,
  'g-recaptcha-response': lookupText(M.captchaFailed, 20_000),
});
export type PublicTicketCreateBody = z.infer<typeof publicTicketCreateBodySchema>;

/** The public form as filled on screen, before the captcha proof and key are added. */
export const publicTicketFormSchema = z.object(requesterFields);
export type PublicTicketForm = z.infer<typeof publicTicketFormSchema>;

// ---------------------------------------------------------------------------
// PATCH /api/tickets/{id}: take in charge, or attach the ticket's report
// ---------------------------------------------------------------------------

export const takeTicketInChargeBodySchema = z.object({
  statut: z.literal('en_cours', { error: M.invalidStatut }),
  technicien_id: requiredId(M.technicienRequired),
});
export type TakeTicketInChargeBody = z.infer<typeof takeTicketInChargeBodySchema>;

/** `{ nom_rapport }`, for the ticket (PATCH /api/tickets/{id}) or an intervention (PATCH .../interventions/{interventionId}). */
export const ticketReportBodySchema = z.object({ nom_rapport: nomRapport });
export type TicketReportBody = z.infer<typeof ticketReportBodySchema>;
export const interventionReportBodySchema = ticketReportBodySchema;
export type InterventionReportBody = TicketReportBody;

/**
 * What the route receives: one of the two shapes above. Parsed as one object
 * (not a zod union) so the error is the precise French message of the field
 * at fault, not a generic "no union member matched". The output says which
 * action was asked. A technician without `statut` is read as taking in charge.
 */
export type TicketPatchBody =
  | { action: 'take_in_charge'; technicien_id: string }
  | { action: 'attach_report'; nom_rapport: string };

export const ticketPatchBodySchema = z
  .object({
    statut: z.preprocess(blankToUndefined, z.literal('en_cours', { error: M.invalidStatut }).optional()),
    technicien_id: z.preprocess(blankToUndefined, ticketEntityIdSchema.optional()),
    nom_rapport: z.unknown().optional(),
  })
  .transform((body, ctx): TicketPatchBody => {
    const wantsReport = body.nom_rapport !== undefined;
    const wantsCharge = body.statut !== undefined || body.technicien_id !== undefined;
    if (wantsReport && !wantsCharge) {
      const parsed = nomRapport.safeParse(body.nom_rapport);
      if (parsed.success) return { action: 'attach_report', nom_rapport: parsed.data };
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? M.invalidNomRapport, path: ['nom_rapport'] });
      return z.NEVER;
    }
    if (wantsCharge && !wantsReport) {
      if (body.technicien_id !== undefined) return { action: 'take_in_charge', technicien_id: body.technicien_id };
      ctx.addIssue({ code: 'custom', message: M.technicienRequired, path: ['technicien_id'] });
      return z.NEVER;
    }
    ctx.addIssue({ code: 'custom', message: M.invalidTicketBody });
    return z.NEVER;
  });
export type TicketPatchBodyInput = z.input<typeof ticketPatchBodySchema>;

// ---------------------------------------------------------------------------
// PATCH /api/tickets/{id}/close and POST /api/tickets/{id}/intervention
// ---------------------------------------------------------------------------

const devisFlag = z.preprocess(
  (value) => {
    const v = blankToUndefined(value);
    if (v === true || v === '1' || v === 'true') return 1;
    if (v === false || v === '0' || v === 'false') return 0;
    return v;
  },
  z.union([z.literal(0), z.literal(1)], { error: M.invalidDevis }).default(0),
);

/**
 * The technician's report of one visit, same fields for a closure and a
 * re-intervention. Times are French local (`datetime-local`) or zoned ISO and
 * come out as UTC ISO; absent `date_cloture` / `arrive_at` mean "now" (the
 * handler's clock). `technicien_id` absent means the technician in charge.
 * Signatures are PNG data URLs; the handler stores them and passes references.
 */
export const ticketVisitBodySchema = z
  .object({
    constat_tech: requiredText(M.constatRequired, TICKET_TEXT_MAX.constat),
    remarque_tech: z.preprocess(
      blankToUndefined,
      z.string({ error: M.textTooLong }).trim().max(TICKET_TEXT_MAX.remarque, { error: M.textTooLong }).refine(...withoutHiddenCharacters).default(''),
    ),
    devis: devisFlag,
    date_cloture: optionalInstant(),
    arrive_at: optionalInstant(),
    etat_arrivee: z.enum(TICKET_ARRIVAL_STATES, { error: M.invalidArrivalState }),
    etat_depart: z.enum(TICKET_DEPARTURE_STATES, { error: M.invalidDepartureState }),
    temps_trajet: z.preprocess(
      blankToUndefined,
      z
        .string({ error: M.invalidTravelTime })
        .trim()
        .regex(TICKET_TRAVEL_TIME_PATTERN, { error: M.invalidTravelTime })
        .default(TICKET_DEFAULT_TRAVEL_TIME),
    ),
    signature_client: pngSignature(M.signatureClientRequired),
    signature_technicien: pngSignature(M.signatureTechnicienRequired),
    technicien_id: optionalId(),
    /** Who signed for the client and in which role ('Responsable sécurité'); absent: the requester signed. */
    signataire_nom: optionalText(TICKET_TEXT_MAX.shortText),
    signataire_qualite: optionalText(TICKET_TEXT_MAX.shortText),
  })
  .refine(
    (body) => body.arrive_at === undefined || body.date_cloture === undefined || body.arrive_at <= body.date_cloture,
    { error: M.arrivalAfterClosure, path: ['arrive_at'] },
  );
export type TicketVisitBody = z.infer<typeof ticketVisitBodySchema>;
export type TicketVisitBodyInput = z.input<typeof ticketVisitBodySchema>;

export const closeTicketBodySchema = ticketVisitBodySchema;
export type CloseTicketBody = TicketVisitBody;
export const reinterventionBodySchema = ticketVisitBodySchema;
export type ReinterventionBody = TicketVisitBody;

// ---------------------------------------------------------------------------
// PATCH /api/tickets/{id}/update: quote validation
// ---------------------------------------------------------------------------

/**
 * `date_enregistrement_devis` is a day (`YYYY-MM-DD`, kept as is) or a
 * date-time (normalised to UTC ISO); absent means the day of validation.
 */
export const validateQuoteBodySchema = z.object({
  numero_devis: requiredText(M.numeroDevisRequired, TICKET_TEXT_MAX.numeroDevis),
  date_enregistrement_devis: z.preprocess(
    blankToUndefined,
    ticketDate((value) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? readTicketDate(value) : readTicketDateTime(value))).optional(),
  ),
});
export type ValidateQuoteBody = z.infer<typeof validateQuoteBodySchema>;
export type ValidateQuoteBodyInput = z.input<typeof validateQuoteBodySchema>;

// ---------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------

/**
 * `GET /api/tickets/clos`. Days are French calendar days, both inclusive.
 * Without dates the handler applies `defaultClosedTicketsRange(now)`;
 * `devis_attente=1` keeps only closed tickets whose quote is pending.
 */
export const closedTicketsQuerySchema = z
  .object({
    date_debut: optionalDay(),
    date_fin: optionalDay(),
    client_id: optionalId(),
    site_id: optionalId(),
    installation_id: optionalId(),
    technicien_id: optionalId(),
    metier_id: optionalId(),
    devis_attente: optionalFlag(),
  })
  .refine((q) => q.date_debut === undefined || q.date_fin === undefined || q.date_debut <= q.date_fin, {
    error: M.invalidDateRange,
    path: ['date_debut'],
  });
export type ClosedTicketsQuery = z.infer<typeof closedTicketsQuerySchema>;

/**
 * The ticket list's own URL (spec §2: `/tickets?statut=...&urgent=1&devis_attente=1`).
 * A hand-edited URL must not break the screen, so unknown values are dropped.
 */
export const ticketListSearchSchema = z.object({
  statut: z.enum(TICKET_STATUSES).optional().catch(undefined),
  urgent: optionalFlag().catch(undefined),
  devis_attente: optionalFlag().catch(undefined),
});
export type TicketListSearch = z.infer<typeof ticketListSearchSchema>;

/** Path parameters. */
export const ticketIdParamsSchema = z.object({ id: ticketEntityIdSchema });
export const interventionIdParamsSchema = z.object({ id: ticketEntityIdSchema, interventionId: ticketEntityIdSchema });
