/**
 * Business constants of the ticket side (spec tickets §4, §5, §9). One place,
 * so the server's checks and the UI's display use the same numbers.
 */

/** Ticket statuses. `urgent` is a flag, never a status (spec §4). */
export const TICKET_STATUSES = ['ouvert', 'en_cours', 'intervention', 'clos'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** How a ticket entered the system: staff form, public QR form, telesurveillance form. */
export const TICKET_SOURCES = ['manual', 'public', 'telesurveillance'] as const;
export type TicketSource = (typeof TICKET_SOURCES)[number];

/** Installation state when the technician arrives (spec §5), in display order. */
export const TICKET_ARRIVAL_STATES = ['En service', 'Hors service', 'En dérangement', 'En alarme feu', 'Autre'] as const;
export type TicketArrivalState = (typeof TICKET_ARRIVAL_STATES)[number];

/** Installation state when the technician leaves (spec §5), in display order. */
export const TICKET_DEPARTURE_STATES = ['Fonctionnel', 'Non fonctionnel', 'Partiellement fonctionnel'] as const;
export type TicketDepartureState = (typeof TICKET_DEPARTURE_STATES)[number];

/** Travel time when the technician leaves the field empty (spec §5). */
export const TICKET_DEFAULT_TRAVEL_TIME = '00:00';
/** `HH:mm`, 00:00 to 23:59: a travel time of a day or more is a typing error. */
export const TICKET_TRAVEL_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Time a quote may take to be registered once requested: 5 days (spec §9). */
export const QUOTE_WINDOW_MS = 432_000_000;
/** Quote bar: green above this many days left, yellow down to the next, red at or below it. */
export const QUOTE_GREEN_ABOVE_DAYS = 3;
export const QUOTE_RED_AT_OR_BELOW_DAYS = 1;

/** Deadline bar: elapsed share up to 33 % green, up to 66 % orange, above red (spec §9). */
export const DEADLINE_GREEN_MAX_SHARE = 0.33;
export const DEADLINE_ORANGE_MAX_SHARE = 0.66;

/** Photo limit, server and browser (spec §5, §9): 8 MB. */
export const PHOTO_MAX_BYTES = 8_388_608;
/** Browser compression of a too-large photo: max width, then JPEG qualities tried in order (spec §5). */
export const PHOTO_COMPRESSION_MAX_WIDTH_PX = 2000;
export const PHOTO_COMPRESSION_QUALITIES = [0.85, 0.7] as const;
/** Image types the server accepts, checked by content (magic bytes), not by name. */
export const PHOTO_ACCEPTED_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif'] as const;

/**
 * Closed-ticket search default: 30 days, i.e. from 29 days ago through today
 * (spec §5 and §9 say the same thing counted inclusively).
 */
export const CLOSED_TICKETS_DEFAULT_RANGE_DAYS = 30;

/** UI timings (spec §2, §4, §9). */
export const TICKET_SUCCESS_BANNER_MS = 5000;
export const TICKET_AUTOCOMPLETE_CLOSE_DELAY_MS = 150;
export const PASSWORD_DIALOG_CLOSE_DELAY_MS = 1500;

/** Password rule (spec §5): at least 8 characters, a letter, a digit, a non-alphanumeric character. */
export const PASSWORD_MIN_LENGTH = 8;
/** Upper bound only to keep hashing cheap for a hostile caller; no human types more. */
export const PASSWORD_MAX_LENGTH = 256;

/** Signature pad (spec §9). */
export const SIGNATURE_CANVAS_HEIGHT_PX = 160;
export const SIGNATURE_STROKE_WIDTH = 2;
/** A drawn signature is a few KB; the cap only stops abuse of the JSON body. */
export const SIGNATURE_MAX_DATA_URL_LENGTH = 1_500_000;

/**
 * The French calendar days a ticket date (registration, visit, quote, search
 * filter) may fall on, both inclusive. Older or later years are typing errors,
 * and the read side cannot hold them: the SLA clock knows French holidays from
 * 1583 only, and `num_chrono` prints a four-digit year.
 */
export const TICKET_DATE_MIN_DAY = '2000-01-01';
export const TICKET_DATE_MAX_DAY = '2099-12-31';
/**
 * How far ahead of the server's clock a typed date may be: clocks of phones
 * and PCs drift by a minute or two, a date in the future beyond that is a
 * typing error (a registration, a visit or a quote cannot have happened yet).
 */
export const TICKET_CLOCK_TOLERANCE_MS = 5 * 60_000;
/**
 * Longest intervention delay, in hours, of an installation or a métier: a year.
 * The SLA clock walks the delay day by day, and the read models store it in a
 * 32-bit integer: 3,000,000,000 hours stopped the read side for good.
 */
export const TICKET_DELAI_MAX_HOURS = 8760;

/** Text limits: generous for humans, bounded for the database and the PDF. */
export const TICKET_TEXT_MAX = {
  shortText: 200,
  /** RFC 5321's longest address. */
  email: 254,
  telephone: 40,
  probleme: 5000,
  constat: 10_000,
  remarque: 10_000,
  numeroDevis: 100,
  nomRapport: 255,
} as const;
