import { z } from 'zod';
import { defineEvent, isoDateTime, requiredId, requiredText } from './fields.js';
import { agenceIdSchema, clientIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

export const CLIENTS_PAGE_SIZE = 10;

/**
 * POST /api/clients and PUT /api/clients/{id}. The form returns silently when a
 * field is missing (§5); the API still answers with a message. Non admin_plus
 * users send their own agency (the handler checks it with resolveScopedAgenceId).
 */
export const clientBodySchema = z.object({
  nom: requiredText(M.clientFieldsRequired),
  adresse: requiredText(M.clientFieldsRequired),
  ville: requiredText(M.clientFieldsRequired),
  code_postal: requiredText(M.clientFieldsRequired, 10),
  agence_id: requiredId(M.agenceRequired),
});
export type ClientBody = z.output<typeof clientBodySchema>;
export type ClientBodyInput = z.input<typeof clientBodySchema>;

export const clientSchema = z.object({
  id: clientIdSchema,
  nom: z.string(),
  adresse: z.string(),
  ville: z.string(),
  code_postal: z.string(),
  agence_id: agenceIdSchema,
  agence_nom: z.string().nullable(),
  version: entityVersionSchema.optional(),
});
export type Client = z.infer<typeof clientSchema>;
export const clientsResponseSchema = z.array(clientSchema);

const clientFacts = {
  nom: z.string().min(1),
  adresse: z.string().min(1),
  ville: z.string().min(1),
  code_postal: z.string().min(1),
  agenceId: agenceIdSchema,
};

export const clientCreatedEventSchema = defineEvent('ClientCreated', { clientId: clientIdSchema, ...clientFacts, createdAt: isoDateTime });
export const clientUpdatedEventSchema = defineEvent('ClientUpdated', { clientId: clientIdSchema, ...clientFacts, updatedAt: isoDateTime });
/** Its sites, installations and contacts disappear from the read models with it. */
export const clientDeletedEventSchema = defineEvent('ClientDeleted', { clientId: clientIdSchema, deletedAt: isoDateTime });

export const clientEventSchema = z.discriminatedUnion('type', [clientCreatedEventSchema, clientUpdatedEventSchema, clientDeletedEventSchema]);
export type ClientEvent = z.infer<typeof clientEventSchema>;
