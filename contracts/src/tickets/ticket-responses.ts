import { z } from 'zod';
import { TICKET_ARRIVAL_STATES, TICKET_DEPARTURE_STATES, TICKET_SOURCES, TICKET_STATUSES } from './ticket-constants.js';

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
