import { z } from 'zod';
import { TICKET_DELAI_MAX_HOURS } from '../tickets/ticket-constants.js';
import { LONG_TEXT_MAX, defineEvent, isoDateTime, numberInput, requiredId, requiredText, zeroOrOne } from './fields.js';
import { installationIdSchema, metierIdSchema, siteIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

/** Minimum intervention delay, in hours (§9). */
export const INSTALLATION_DELAI_MIN_HOURS = 1;

/** How the clients screen shows the delay (§2). */
export function formatInstallationDelai(delai: number): string {
  return `Dépannage sous ${delai}h`;
}

/**
 * POST /api/installations and PUT /api/installations/{id}. `delai` is a whole
 * number of hours (the SLA clock counts hours), a year at most
 * (TICKET_DELAI_MAX_HOURS); `astreinte` accepts the
 * checkbox's boolean and is stored as 0 or 1, 0 when absent.
 */
export const installationBodySchema = z.object({
  nom: requiredText(M.installationNomRequired),
  id_metier: requiredId(M.installationMetierRequired),
  description: requiredText(M.installationDescriptionRequired, LONG_TEXT_MAX),
  delai: z.preprocess(
    numberInput,
    z
      .int({ error: (issue) => (issue.input === null ? M.installationDelaiRequired : M.installationDelaiInvalid) })
      .min(INSTALLATION_DELAI_MIN_HOURS, M.installationDelaiInvalid)
      .max(TICKET_DELAI_MAX_HOURS, M.installationDelaiTooLarge),
  ),
  astreinte: zeroOrOne(M.installationAstreinteInvalid),
  site_id: requiredId(M.siteRequired),
});
export type InstallationBody = z.output<typeof installationBodySchema>;
export type InstallationBodyInput = z.input<typeof installationBodySchema>;

export const installationSchema = z.object({
  id: installationIdSchema,
  nom: z.string(),
  id_metier: metierIdSchema,
  metier_nom: z.string().nullable(),
  description: z.string(),
  delai: z.int(),
  astreinte: z.union([z.literal(0), z.literal(1)]),
  site_id: siteIdSchema,
  version: entityVersionSchema.optional(),
});
export type Installation = z.infer<typeof installationSchema>;
export const installationsResponseSchema = z.array(installationSchema);

const installationFacts = {
  siteId: siteIdSchema,
  nom: z.string().min(1),
  metierId: metierIdSchema,
  description: z.string().min(1),
  delai: z.int().min(INSTALLATION_DELAI_MIN_HOURS),
  astreinte: z.union([z.literal(0), z.literal(1)]),
};

export const installationCreatedEventSchema = defineEvent('InstallationCreated', { installationId: installationIdSchema, ...installationFacts, createdAt: isoDateTime });
export const installationUpdatedEventSchema = defineEvent('InstallationUpdated', { installationId: installationIdSchema, ...installationFacts, updatedAt: isoDateTime });
/** Its QR codes stop leading anywhere: the public form finds no live installation behind them. */
export const installationDeletedEventSchema = defineEvent('InstallationDeleted', { installationId: installationIdSchema, deletedAt: isoDateTime });

export const installationEventSchema = z.discriminatedUnion('type', [
  installationCreatedEventSchema,
  installationUpdatedEventSchema,
  installationDeletedEventSchema,
]);
export type InstallationEvent = z.infer<typeof installationEventSchema>;
