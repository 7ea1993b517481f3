import { z } from 'zod';
import {
  TICKET_ARRIVAL_STATES,
  TICKET_DEPARTURE_STATES,
  TICKET_SOURCES,
  TICKET_TRAVEL_TIME_PATTERN,
} from './ticket-constants.js';

/**
 * Events of the ticket stream (`ticket-<uuid>`). Each is `{ type, data }`;
 * who, when-recorded and correlation live in the store's metadata. Data keeps
 * facts as they were when they happened (names, address, SLA delay), so a
 * later rename of a client or a change of an installation's delay never
 * rewrites history. Published types are never edited: a change is a new
 * version plus an upcaster.
 */

const isoInstant = z.iso.datetime({ offset: true });
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
});
export type TicketVisitReport = z.infer<typeof ticketVisitReportSchema>;

export const ticketClosedDataSchema = ticketVisitReportSchema;

export const reinterventionRecordedDataSchema = ticketVisitReportSchema.extend({
  interventionId: entityId,
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
export const ticketClosedSchema = z.object({ type: z.literal('TicketClosed'), data: ticketClosedDataSchema });
export const reinterventionRecordedSchema = z.object({ type: z.literal('ReinterventionRecorded'), data: reinterventionRecordedDataSchema });
export const ticketReportAttachedSchema = z.object({ type: z.literal('TicketReportAttached'), data: ticketReportAttachedDataSchema });
export const quoteValidatedSchema = z.object({ type: z.literal('QuoteValidated'), data: quoteValidatedDataSchema });

export const ticketEventSchema = z.discriminatedUnion('type', [
  ticketOpenedSchema,
  ticketTakenInChargeSchema,
  ticketClosedSchema,
  reinterventionRecordedSchema,
  ticketReportAttachedSchema,
  quoteValidatedSchema,
]);

export type TicketOpened = z.infer<typeof ticketOpenedSchema>;
export type TicketTakenInCharge = z.infer<typeof ticketTakenInChargeSchema>;
export type TicketClosed = z.infer<typeof ticketClosedSchema>;
export type ReinterventionRecorded = z.infer<typeof reinterventionRecordedSchema>;
export type TicketReportAttached = z.infer<typeof ticketReportAttachedSchema>;
export type QuoteValidated = z.infer<typeof quoteValidatedSchema>;
export type TicketEvent = z.infer<typeof ticketEventSchema>;
export type TicketEventType = TicketEvent['type'];
export type TicketOpenedData = TicketOpened['data'];
export type TicketTakenInChargeData = TicketTakenInCharge['data'];
export type TicketClosedData = TicketClosed['data'];
export type ReinterventionRecordedData = ReinterventionRecorded['data'];
export type TicketReportAttachedData = TicketReportAttached['data'];
export type QuoteValidatedData = QuoteValidated['data'];

export const TICKET_EVENT_TYPES = [
  'TicketOpened',
  'TicketTakenInCharge',
  'TicketClosed',
  'ReinterventionRecorded',
  'TicketReportAttached',
  'QuoteValidated',
] as const satisfies readonly TicketEventType[];

/** Stream category of tickets in the event store. */
export const TICKET_STREAM_CATEGORY = 'ticket';
export function ticketStreamId(ticketId: string): string {
  return `${TICKET_STREAM_CATEGORY}-${ticketId}`;
}
