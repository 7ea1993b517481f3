import { z } from 'zod';
import {
  TICKET_ARRIVAL_STATES,
  TICKET_DEFAULT_TRAVEL_TIME,
  TICKET_DEPARTURE_STATES,
  TICKET_SOURCES,
  TICKET_STATUSES,
  TICKET_TEXT_MAX,
  TICKET_TRAVEL_TIME_PATTERN,
} from './ticket-constants.js';
import { readTicketDate, readTicketDateTime, readTicketRegistration } from './ticket-dates.js';
import {
  blankToUndefined,
  dateRefusal,
  lookupText,
  optionalDay,
  optionalFlag,
  optionalId,
  optionalInstant,
  optionalText,
  pngSignature,
  requiredEmail,
  requiredId,
  requiredText,
  ticketDate,
  ticketEntityIdSchema,
  withoutHiddenCharacters,
} from './ticket-fields.js';
import { TICKET_MESSAGES as M } from './ticket-messages.js';

/*
 * The ticket aggregate's contract, in the order of every aggregate's file
 * (management/client.ts): the bodies and queries of its routes, the answers
 * the UI receives, then the events of its stream.
 */

// ===========================================================================
// Bodies and queries
// ===========================================================================

/**
 * Bodies and queries of the ticket routes of spec §7, field names as the spec
 * spells them. The server parses every request with these (400 with the
 * French message of the first issue) and the web forms validate with the same
 * schemas (building blocks in ticket-fields.ts).
 */

/** A file name, never a path: the report name ends up in a download URL and on disk. */
const REPORT_FILE_NAME = /^(?!\.{1,2}$)[^/\\\u0000-\u001f]+$/;

const nomRapport = z
  .string({ error: M.nomRapportRequired })
  .trim()
  .min(1, { error: M.nomRapportRequired, abort: true })
  .max(TICKET_TEXT_MAX.nomRapport, { error: M.invalidNomRapport })
  .regex(REPORT_FILE_NAME, { error: M.invalidNomRapport })
  .refine(...withoutHiddenCharacters);

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

/**
 * `{ nom_rapport }` of PATCH /api/tickets/{id}/interventions/{interventionId}; the
 * ticket's own report goes through ticketPatchBodySchema below.
 */
export const interventionReportBodySchema = z.object({ nom_rapport: nomRapport });
export type InterventionReportBody = z.infer<typeof interventionReportBodySchema>;

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

/** Longest text the closed search takes. */
export const CLOSED_SEARCH_TEXT_MAX = 100;
const CLOSED_SEARCH_TEXT_TOO_LONG = `La recherche ne doit pas dépasser ${CLOSED_SEARCH_TEXT_MAX} caractères.`;

/** `q`: trimmed, blank is absent, at most CLOSED_SEARCH_TEXT_MAX characters. */
function closedSearchText() {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : value === null ? undefined : value),
    z.string({ error: CLOSED_SEARCH_TEXT_TOO_LONG }).max(CLOSED_SEARCH_TEXT_MAX, { error: CLOSED_SEARCH_TEXT_TOO_LONG }).optional(),
  );
}

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
    /**
     * Opt-in (issue 32, item 9): text searched in the number, client, site,
     * town, installation and technicians' names (in charge or closing), case-
     * and accent-insensitive. A whole chrono number (`LYO-2026-00042`) is
     * looked up exactly.
     */
    q: closedSearchText(),
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
  /** Opt-in (issue 32, item 8): late tickets only (not closed, past their échéance), most late first. */
  en_retard: optionalFlag().catch(undefined),
});
export type TicketListSearch = z.infer<typeof ticketListSearchSchema>;

/** Path parameters. */
export const ticketIdParamsSchema = z.object({ id: ticketEntityIdSchema });
export const interventionIdParamsSchema = z.object({ id: ticketEntityIdSchema, interventionId: ticketEntityIdSchema });

// ===========================================================================
// Answers
// ===========================================================================

/**
 * Answers of the ticket routes as the UI receives them (spec §3 entities,
 * field names as the spec spells them). Instants are UTC ISO strings; absent
 * facts are null, never missing keys, so the UI has one shape to handle.
 */

const isoInstant = z.iso.datetime({ offset: true });
const zeroOrOne = z.union([z.literal(0), z.literal(1)]);

/**
 * A ticket as GET /api/tickets, /api/tickets/clos and /api/tickets/{id} send
 * it: the one definition (projections' SQL select list, the routes' response
 * schemas and the web's parsing all follow it). Key order is the answer's.
 */
export const ticketSchema = z.object({
  id: z.string(),
  num_chrono: z.string(),
  statut: z.enum(TICKET_STATUSES),
  urgent: z.boolean(),
  client_nom: z.string(),
  site_nom: z.string(),
  site_adresse: z.string(),
  site_code_postal: z.string(),
  site_ville: z.string(),
  installation_id: z.string(),
  installation_nom: z.string(),
  metier_nom: z.string().nullable(),
  probleme: z.string(),
  astreinte: zeroOrOne,
  /** A URL the UI can put in an <img>, or null. */
  photo: z.string().nullable(),
  /** Registration instant (TicketOpened.openedAt). */
  created_at: isoInstant,
  clos_at: isoInstant.nullable(),
  /** Arrival of the closing visit. */
  arrive_at: isoInstant.nullable(),
  echeance: isoInstant.nullable(),
  /** Hours allowed, as fixed at opening. */
  delai: z.number().nullable(),
  /** Whole minutes from created_at to clos_at, or to the time of the answer while open. */
  minutes_ecoulees: z.number().int().nonnegative(),
  operateur_prenom: z.string().nullable(),
  operateur_nom: z.string().nullable(),
  technicien_prenom: z.string().nullable(),
  technicien_nom: z.string().nullable(),
  id_technicien: z.string().nullable(),
  constat_tech: z.string().nullable(),
  remarque_tech: z.string().nullable(),
  etat_arrivee: z.enum(TICKET_ARRIVAL_STATES).nullable(),
  etat_depart: z.enum(TICKET_DEPARTURE_STATES).nullable(),
  nom_rapport: z.string().nullable(),
  /** 1 once any visit asked for a quote. */
  devis: zeroOrOne,
  numero_devis: z.string().nullable(),
  /** When the quote was asked for (start of the 5-day window). */
  date_devis: isoInstant.nullable(),
  date_enregistrement_devis: z.string().nullable(),
  /** Re-interventions only. */
  interventions_supp_count: z.number().int().nonnegative(),
  /** Every visit: re-interventions plus the closing one when the ticket is clos. */
  interventions_count: z.number().int().nonnegative(),
  // Requester (demandeur), as given when the ticket was opened.
  prenom: z.string(),
  nom: z.string(),
  email: z.string(),
  telephone: z.string(),
  // Not in the spec's entity: the ids the detail screen needs to load contacts and pickers.
  agence_id: z.string(),
  client_id: z.string(),
  site_id: z.string(),
  metier_id: z.string().nullable(),
  source: z.enum(TICKET_SOURCES),
  /** Travel time of the closing visit (`HH:mm`). */
  temps_trajet: z.string().nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const interventionSchema = z.object({
  id: z.string(),
  ticket_id: z.string(),
  /** When the re-intervention was recorded. */
  created_at: isoInstant,
  arrive_at: isoInstant.nullable(),
  clos_at: isoInstant.nullable(),
  technicien_prenom: z.string().nullable(),
  technicien_nom: z.string().nullable(),
  constat_tech: z.string().nullable(),
  remarque_tech: z.string().nullable(),
  etat_arrivee: z.enum(TICKET_ARRIVAL_STATES).nullable(),
  etat_depart: z.enum(TICKET_DEPARTURE_STATES).nullable(),
  temps_trajet: z.string().nullable(),
  devis: zeroOrOne,
  nom_rapport: z.string().nullable(),
});
export type Intervention = z.infer<typeof interventionSchema>;

export const interventionListResponseSchema = z.array(interventionSchema);

/**
 * Creation answers (spec §7): staff read `message` or `error`, telesurveillance
 * reads `success`, `ticket_id`, `error`, the public form reads `error`.
 */
export const ticketCreateResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  ticket_id: z.string(),
  num_chrono: z.string(),
});
export type TicketCreateResponse = z.infer<typeof ticketCreateResponseSchema>;

/** Every rejection: `{ error }` with the French message (`success: false` for the forms that read it). */
export const ticketErrorResponseSchema = z.object({ success: z.literal(false).optional(), error: z.string() });
export type TicketErrorResponse = z.infer<typeof ticketErrorResponseSchema>;

/** The public form learns only that its request was registered, not the ticket's id. */
export const publicTicketCreateResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type PublicTicketCreateResponse = z.infer<typeof publicTicketCreateResponseSchema>;

/**
 * GET /api/public/qr-keys/{key}: the public form checks its link on load. It
 * learns only that the key leads to a live installation (404 'Lien non
 * valide...' otherwise): no client, site or installation name.
 */
export const publicQrKeyAnswerSchema = z.object({ valide: z.literal(true) });
export const publicQrKeyParamsSchema = z.object({ key: z.string().trim().min(1).max(200) });

// ===========================================================================
// Events
// ===========================================================================

/**
 * Events of the ticket stream (`ticket-<uuid>`). Each is `{ type, data }`;
 * who, when-recorded and correlation live in the store's metadata. Data keeps
 * facts as they were when they happened (names, address, SLA delay), so a
 * later rename of a client or a change of an installation's delay never
 * rewrites history. Published types are never edited: a change is a new
 * version plus an upcaster.
 */

const isoDay = z.iso.date();
const entityId = z.string().min(1);


/**
 * Whether a value is an instant as ticket events carry it, i.e. what the
 * projectors will parse. The decider checks its dates with this, so it can
 * never accept an instant the read side refuses ('2026-02-30T10:00Z',
 * '24:00:00', no seconds): such an event would stop the read side.
 */
export function isTicketEventInstant(value: string): boolean {
  return isoInstant.safeParse(value).success;
}

/** Whether a value is a day (`YYYY-MM-DD`, a real one) as ticket events carry it. */
export function isTicketEventDay(value: string): boolean {
  return isoDay.safeParse(value).success;
}

/** A person as named at the time (technician, operator). */
export const ticketPersonSchema = z.object({ id: entityId, prenom: z.string(), nom: z.string() });
export type TicketPerson = z.infer<typeof ticketPersonSchema>;

export const ticketRequesterSchema = z.object({
  nom: z.string(),
  prenom: z.string(),
  email: z.string(),
  telephone: z.string(),
});
export type TicketRequester = z.infer<typeof ticketRequesterSchema>;

export const ticketOpenedDataSchema = z.object({
  ticketId: entityId,
  numChrono: z.string().min(1),
  source: z.enum(TICKET_SOURCES),
  agenceId: entityId,
  client: z.object({ id: entityId, nom: z.string() }),
  site: z.object({
    id: entityId,
    nom: z.string(),
    adresse: z.string(),
    code_postal: z.string(),
    ville: z.string(),
  }),
  installation: z.object({ id: entityId, nom: z.string(), astreinte: z.union([z.literal(0), z.literal(1)]) }),
  metier: z.object({ id: entityId, nom: z.string() }).nullable(),
  /** Hours allowed, as the installation (else its métier) said at opening; null when neither had one. */
  delai: z.number().nonnegative().nullable(),
  /** openedAt + delai calendar hours; null when delai is null. */
  echeance: isoInstant.nullable(),
  urgent: z.boolean(),
  probleme: z.string(),
  /** File-store reference of the photo, not a URL: the API turns it into one. */
  photo: z.string().min(1).nullable(),
  requester: ticketRequesterSchema,
  /** Staff member who registered it; null for the public form. */
  operateur: ticketPersonSchema.nullable(),
  /** Registration instant (the manual form's date and time, else the moment of the request). */
  openedAt: isoInstant,
  remarqueTech: z.string().optional(),
});

export const ticketTakenInChargeDataSchema = z.object({
  technicien: ticketPersonSchema,
  takenAt: isoInstant,
});

/** What a technician reports for one visit: the ticket's closure or a re-intervention. */
export const ticketVisitReportSchema = z.object({
  constatTech: z.string().min(1),
  remarqueTech: z.string(),
  devis: z.union([z.literal(0), z.literal(1)]),
  arriveAt: isoInstant,
  /** End of the visit (`date_cloture`). */
  closedAt: isoInstant,
  etatArrivee: z.enum(TICKET_ARRIVAL_STATES),
  etatDepart: z.enum(TICKET_DEPARTURE_STATES),
  tempsTrajet: z.string().regex(TICKET_TRAVEL_TIME_PATTERN),
  /** File-store references of the PNG signatures. */
  signatureClient: z.string().min(1),
  signatureTechnicien: z.string().min(1),
  technicien: ticketPersonSchema,
  /**
   * Who signed for the client, as typed in the wizard. Optional, so every
   * visit recorded before they existed still parses (absent: the requester).
   */
  signataireNom: z.string().min(1).optional(),
  signataireQualite: z.string().min(1).optional(),
  /**
   * The signed-in user who recorded the visit, and so drew the technician's
   * signature on their screen (issue 32), beside `technicien`, who did the
   * work. Optional: visits recorded before it existed still parse (absent:
   * the technician recorded it).
   */
  auteur: ticketPersonSchema.optional(),
});
export type TicketVisitReport = z.infer<typeof ticketVisitReportSchema>;

export const reinterventionRecordedDataSchema = ticketVisitReportSchema.extend({
  interventionId: entityId,
});

/**
 * « Je suis sur site » (issue 32): the technician's arrival for the visit in
 * progress, by the server's clock, so the wizard's arrival is the real one
 * rather than the moment the report is typed. `technicien`: who tapped (the
 * signed-in user); null for a caller without a user.
 */
export const technicianArrivedOnSiteDataSchema = z.object({
  technicien: ticketPersonSchema.nullable(),
  arrivedAt: isoInstant,
});

export const ticketReportAttachedDataSchema = z.object({
  nomRapport: z.string().min(1),
  /** null: the ticket's own report (closure); else the re-intervention it belongs to. */
  interventionId: entityId.nullable(),
});

export const quoteValidatedDataSchema = z.object({
  numeroDevis: z.string().min(1),
  /** The quote's registration date as the user gave it: a day (`YYYY-MM-DD`) or an instant. */
  dateEnregistrementDevis: z.union([isoDay, isoInstant]),
  validatedAt: isoInstant,
});

export const ticketOpenedSchema = z.object({ type: z.literal('TicketOpened'), data: ticketOpenedDataSchema });
export const ticketTakenInChargeSchema = z.object({ type: z.literal('TicketTakenInCharge'), data: ticketTakenInChargeDataSchema });
export const ticketClosedSchema = z.object({ type: z.literal('TicketClosed'), data: ticketVisitReportSchema });
export const reinterventionRecordedSchema = z.object({ type: z.literal('ReinterventionRecorded'), data: reinterventionRecordedDataSchema });
export const ticketReportAttachedSchema = z.object({ type: z.literal('TicketReportAttached'), data: ticketReportAttachedDataSchema });
export const technicianArrivedOnSiteSchema = z.object({ type: z.literal('TechnicianArrivedOnSite'), data: technicianArrivedOnSiteDataSchema });
export const quoteValidatedSchema = z.object({ type: z.literal('QuoteValidated'), data: quoteValidatedDataSchema });

export const ticketEventSchema = z.discriminatedUnion('type', [
  ticketOpenedSchema,
  ticketTakenInChargeSchema,
  ticketClosedSchema,
  reinterventionRecordedSchema,
  ticketReportAttachedSchema,
  quoteValidatedSchema,
  technicianArrivedOnSiteSchema,
]);

export type TicketOpened = z.infer<typeof ticketOpenedSchema>;
export type TicketTakenInCharge = z.infer<typeof ticketTakenInChargeSchema>;
export type TicketClosed = z.infer<typeof ticketClosedSchema>;
export type ReinterventionRecorded = z.infer<typeof reinterventionRecordedSchema>;
export type TicketReportAttached = z.infer<typeof ticketReportAttachedSchema>;
export type QuoteValidated = z.infer<typeof quoteValidatedSchema>;
export type TechnicianArrivedOnSite = z.infer<typeof technicianArrivedOnSiteSchema>;
export type TicketEvent = z.infer<typeof ticketEventSchema>;
export type TicketEventType = TicketEvent['type'];
export type TicketOpenedData = TicketOpened['data'];
export type TicketTakenInChargeData = TicketTakenInCharge['data'];
export type TicketClosedData = TicketClosed['data'];
export type ReinterventionRecordedData = ReinterventionRecorded['data'];
export type TicketReportAttachedData = TicketReportAttached['data'];
export type QuoteValidatedData = QuoteValidated['data'];
export type TechnicianArrivedOnSiteData = TechnicianArrivedOnSite['data'];

export const TICKET_EVENT_TYPES = [
  'TicketOpened',
  'TicketTakenInCharge',
  'TicketClosed',
  'ReinterventionRecorded',
  'TicketReportAttached',
  'QuoteValidated',
  'TechnicianArrivedOnSite',
] as const satisfies readonly TicketEventType[];

/** Stream category of tickets in the event store. */
export const TICKET_STREAM_CATEGORY = 'ticket';
export function ticketStreamId(ticketId: string): string {
  return `${TICKET_STREAM_CATEGORY}-${ticketId}`;
}
