import { z } from 'zod';
import { closedTicketsQuerySchema, ticketListSearchSchema, ticketSchema } from './ticket.js';

/*
 * Opt-in keyset pages of the long lists (issue #19): GET /api/tickets,
 * GET /api/tickets/clos and GET /api/stats/tickets. Without `limit` the
 * three routes answer exactly as the spec says (one body with every row);
 * with it they answer one page in the list's own order, `next_cursor` to ask
 * for the next one and `total`, the number of rows matching the filters.
 * The cursor is opaque: the last row's sort key and id, and a fingerprint of
 * the filters it was made for (another filter set refuses it).
 */

/** Largest page a client may ask for. */
export const PAGE_LIMIT_MAX = 200;
/** Longest cursor accepted (the server's are about 150 characters). */
export const PAGE_CURSOR_MAX_LENGTH = 512;

/** Not in the spec (issue #19). */
export const PAGING_MESSAGES = {
  invalidLimit: `Le paramètre limit doit être un nombre entier entre 1 et ${PAGE_LIMIT_MAX}.`,
  invalidCursor: 'Curseur de pagination invalide.',
  cursorWithoutLimit: 'Le paramètre cursor ne s’utilise qu’avec limit.',
} as const;

/*
 * Bounded answers (issue 28): the unpaged forms keep the spec's shape but
 * refuse, before any row is sent, a selection above UNPAGED_ROWS_MAX (422),
 * and run a few at a time (429 past the limit, with Retry-After).
 */
const frenchCount = (total: number) => new Intl.NumberFormat('fr-FR').format(total).replace(/\s/g, '\u00a0');

export const BOUNDED_ANSWER_MESSAGES = {
  /** A ticket list without `limit`. */
  tooManyTickets: (total: number) =>
    `Trop de tickets pour une seule réponse (${frenchCount(total)}) : précisez les filtres (dates, client…) ou utilisez la pagination (limit).`,
  /** The statistics without `limit`. */
  tooManyStatsTickets: (total: number) =>
    `Trop de tickets pour une seule réponse (${frenchCount(total)}) : réduisez la période ou choisissez une agence ou un métier, ou utilisez la pagination (limit).`,
  /** The inline CSV: the export in the background (POST /api/exports) has no ceiling. */
  tooManyCsvTickets: (total: number) =>
    `Trop de tickets pour un export immédiat (${frenchCount(total)}) : réduisez la période ou choisissez une agence ou un métier, ou lancez l’export en arrière-plan.`,
  heavyReadsBusy: 'Trop de requêtes lourdes en cours : réessayez dans quelques secondes.',
} as const;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** `limit` and `cursor` as a query string gives them; spread into a list's query object and check with `refinePaging`. */
export const pagingQueryShape = {
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: PAGING_MESSAGES.invalidLimit })
      .int({ error: PAGING_MESSAGES.invalidLimit })
      .min(1, { error: PAGING_MESSAGES.invalidLimit })
      .max(PAGE_LIMIT_MAX, { error: PAGING_MESSAGES.invalidLimit })
      .optional(),
  ).describe(
    `Facultatif : nombre de lignes par page (1 à ${PAGE_LIMIT_MAX}). Sans lui, la route répond comme la spécification (toutes les lignes) ; avec lui, une page, next_cursor et total.`,
  ),
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string({ error: PAGING_MESSAGES.invalidCursor })
      .max(PAGE_CURSOR_MAX_LENGTH, { error: PAGING_MESSAGES.invalidCursor })
      .regex(/^[A-Za-z0-9_-]+$/, { error: PAGING_MESSAGES.invalidCursor })
      .optional(),
  ).describe('Facultatif, seulement avec limit : le next_cursor de la page précédente, tel quel, avec les mêmes filtres (400 sinon).'),
};

export interface PagingQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** A cursor is only meaningful for a paged request. */
export function refinePaging<T extends z.ZodType<PagingQuery>>(schema: T) {
  return schema.refine((query) => query.cursor === undefined || query.limit !== undefined, {
    error: PAGING_MESSAGES.cursorWithoutLimit,
    path: ['cursor'],
  });
}

/** Pages of one list: the rows, then where to go on (null on the last page) and how many rows the filters match in all. */
export const pageInfoShape = {
  next_cursor: z.string().nullable(),
  total: z.int().min(0),
};

/**
 * The open list's chips (Tout, Urgents, Ouverts, En cours, Interventions),
 * counted by SQL over the caller's scope with the `devis_attente` filter
 * only (as the screen counts them: the selected chip does not narrow them).
 */
export const openTicketCountsSchema = z.object({
  tout: z.int().min(0),
  urgents: z.int().min(0),
  ouverts: z.int().min(0),
  en_cours: z.int().min(0),
  interventions: z.int().min(0),
  /** Only with the opt-in `avec_retard=1` (issue 32, item 8): the « En retard » chip, late tickets (not closed, past their échéance). */
  en_retard: z.int().min(0).optional(),
});
export type OpenTicketCounts = z.infer<typeof openTicketCountsSchema>;

/** `GET /api/tickets?limit=` answer; `counts` is given on the first page (no cursor) and null on the next ones. */
export const openTicketsPageSchema = z.object({
  tickets: z.array(ticketSchema),
  ...pageInfoShape,
  counts: openTicketCountsSchema.nullable(),
});
export type OpenTicketsPage = z.infer<typeof openTicketsPageSchema>;

/** `GET /api/tickets/clos?limit=` answer. */
export const closedTicketsPageSchema = z.object({
  tickets: z.array(ticketSchema),
  ...pageInfoShape,
});
export type ClosedTicketsPage = z.infer<typeof closedTicketsPageSchema>;

/** `GET /api/tickets` query: the list's URL filters plus the opt-in page. */
export const openTicketsQuerySchema = refinePaging(
  ticketListSearchSchema.extend({
    ...pagingQueryShape,
    /** Opt-in (issue 32, item 8): a paged answer's `counts` also carry `en_retard`. */
    avec_retard: ticketListSearchSchema.shape.en_retard.describe('Facultatif : avec limit, counts.en_retard (tickets en retard) est ajouté.'),
  }),
);
export type OpenTicketsQuery = z.infer<typeof openTicketsQuerySchema>;

/** `GET /api/tickets/clos` query: the closed search's filters plus the opt-in page. */
export const closedTicketsPagedQuerySchema = refinePaging(closedTicketsQuerySchema.safeExtend(pagingQueryShape));
export type ClosedTicketsPagedQuery = z.infer<typeof closedTicketsPagedQuerySchema>;
