import { z } from 'zod';
import { defineEvent, isoDateTime, requiredId, requiredText } from './fields.js';
import { clientIdSchema, siteIdSchema } from './ids.js';
import { installationSchema } from './installation.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

/** POST /api/sites and PUT /api/sites/{id}; one message for every missing field (§5). */
export const siteBodySchema = z.object({
  nom: requiredText(M.siteFieldsRequired),
  adresse: requiredText(M.siteFieldsRequired),
  ville: requiredText(M.siteFieldsRequired),
  code_postal: requiredText(M.siteFieldsRequired, 10),
  client_id: requiredId(M.clientRequired),
});
export type SiteBody = z.output<typeof siteBodySchema>;
export type SiteBodyInput = z.input<typeof siteBodySchema>;

export const siteSchema = z.object({
  id: siteIdSchema,
  nom: z.string(),
  adresse: z.string(),
  ville: z.string(),
  code_postal: z.string(),
  client_id: clientIdSchema,
  version: entityVersionSchema.optional(),
});
export type Site = z.infer<typeof siteSchema>;
export const sitesResponseSchema = z.array(siteSchema);

/** GET /api/clients/{id}/sites: each site with its installations. */
export const siteWithInstallationsSchema = siteSchema.extend({ installations: z.array(installationSchema) });
export type SiteWithInstallations = z.infer<typeof siteWithInstallationsSchema>;
export const sitesWithInstallationsResponseSchema = z.array(siteWithInstallationsSchema);

const siteFacts = {
  clientId: clientIdSchema,
  nom: z.string().min(1),
  adresse: z.string().min(1),
  ville: z.string().min(1),
  code_postal: z.string().min(1),
};

export const siteCreatedEventSchema = defineEvent('SiteCreated', { siteId: siteIdSchema, ...siteFacts, createdAt: isoDateTime });
export const siteUpdatedEventSchema = defineEvent('SiteUpdated', { siteId: siteIdSchema, ...siteFacts, updatedAt: isoDateTime });
/** Its installations disappear from the read models with it. */
export const siteDeletedEventSchema = defineEvent('SiteDeleted', { siteId: siteIdSchema, deletedAt: isoDateTime });

export const siteEventSchema = z.discriminatedUnion('type', [siteCreatedEventSchema, siteUpdatedEventSchema, siteDeletedEventSchema]);
export type SiteEvent = z.infer<typeof siteEventSchema>;
