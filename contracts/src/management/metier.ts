import { z } from 'zod';
import { TICKET_DELAI_MAX_HOURS } from '../tickets/ticket-constants.js';
import { defineEvent, isoDateTime, numberInput, requiredText, zeroOrOne } from './fields.js';
import { metierIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { editVersionField, entityVersionSchema } from './version.js';

/** The confirmation of a trade deletion (§5). */
export const METIER_DELETE_CONFIRMATION = 'Supprimer ce métier ?';

/**
 * Bound of `ordre`, either way: ranks are small (a drag renumbers 1, 2, 3...)
 * and negative ones pin a trade first; the read model stores a 32-bit integer,
 * which 3,000,000,000 overflowed and stopped the read side for good.
 */
export const METIER_ORDRE_LIMIT = 99_999;
const ordre = z.int({ error: M.metierOrdreInvalid }).min(-METIER_ORDRE_LIMIT, M.metierOrdreOutOfRange).max(METIER_ORDRE_LIMIT, M.metierOrdreOutOfRange);

/**
 * POST /api/metiers and PUT /api/metiers/{id} (also the HO_stats toggle).
 * Empty ordre and delai_inter are null; delai_inter must be at least 0 and is
 * floored to whole hours (§5), a year at most (TICKET_DELAI_MAX_HOURS);
 * HO_stats is 0 when absent.
 */
export const metierBodySchema = z.object({
  nom: requiredText(M.metierNomRequired),
  ordre: z.preprocess(numberInput, ordre.nullable()),
  delai_inter: z.preprocess(
    numberInput,
    z
      .number({ error: M.metierDelaiInvalid })
      .min(0, M.metierDelaiNegative)
      .max(TICKET_DELAI_MAX_HOURS, M.metierDelaiTooLarge)
      .transform((hours) => Math.floor(hours))
      .nullable(),
  ),
  HO_stats: zeroOrOne(M.metierHoStatsInvalid),
});
export type MetierBody = z.output<typeof metierBodySchema>;
export type MetierBodyInput = z.input<typeof metierBodySchema>;

/** PUT /api/metiers/reorder: every row's new rank after a drag. */
export const metierReorderBodySchema = z
  .array(z.object({ id: metierIdSchema, ordre: z.preprocess(numberInput, ordre), version: editVersionField }), {
    error: 'Le nouvel ordre doit être une liste.',
  })
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (seen.has(item.id)) ctx.addIssue({ code: 'custom', message: M.metierReorderDuplicated, path: [index, 'id'] });
      seen.add(item.id);
    });
  });
export type MetierReorderBody = z.output<typeof metierReorderBodySchema>;
export type MetierReorderBodyInput = z.input<typeof metierReorderBodySchema>;

export const metierSchema = z.object({
  id: metierIdSchema,
  nom: z.string(),
  ordre: z.int().nullable(),
  delai_inter: z.int().min(0).nullable(),
  HO_stats: z.union([z.literal(0), z.literal(1)]),
  version: entityVersionSchema.optional(),
});
export type Metier = z.infer<typeof metierSchema>;
export const metiersResponseSchema = z.array(metierSchema);

/** Table order: by ordre, unnumbered trades last, then by name (French collation). */
export function compareMetiers(a: Pick<Metier, 'ordre' | 'nom'>, b: Pick<Metier, 'ordre' | 'nom'>): number {
  if (a.ordre !== b.ordre) {
    if (a.ordre === null) return 1;
    if (b.ordre === null) return -1;
    return a.ordre - b.ordre;
  }
  return a.nom.localeCompare(b.nom, 'fr');
}

/** After a drag, the rows in their new order get ranks 1, 2, 3... (§4). */
export function renumberMetiers(idsInNewOrder: readonly string[]): { id: string; ordre: number }[] {
  return idsInNewOrder.map((id, index) => ({ id, ordre: index + 1 }));
}

const metierFacts = {
  nom: z.string().min(1),
  ordre: z.int().nullable(),
  delai_inter: z.int().min(0).nullable(),
  HO_stats: z.union([z.literal(0), z.literal(1)]),
};

export const metierCreatedEventSchema = defineEvent('MetierCreated', { metierId: metierIdSchema, ...metierFacts, createdAt: isoDateTime });
export const metierUpdatedEventSchema = defineEvent('MetierUpdated', { metierId: metierIdSchema, ...metierFacts, updatedAt: isoDateTime });
export const metierDeletedEventSchema = defineEvent('MetierDeleted', { metierId: metierIdSchema, deletedAt: isoDateTime });
/** Only the trades whose rank changed. */
export const metiersReorderedEventSchema = defineEvent('MetiersReordered', {
  items: z.array(z.object({ metierId: metierIdSchema, ordre: z.int() })).min(1),
  reorderedAt: isoDateTime,
});

export const metierEventSchema = z.discriminatedUnion('type', [
  metierCreatedEventSchema,
  metierUpdatedEventSchema,
  metierDeletedEventSchema,
  metiersReorderedEventSchema,
]);
export type MetierEvent = z.infer<typeof metierEventSchema>;
