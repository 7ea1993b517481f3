import { z } from 'zod';
import { defineEvent, isoDateTime, optionalEmail, optionalText, requiredId, requiredText, uniqueIds } from './fields.js';
import { clientIdSchema, installationIdSchema, interlocuteurIdSchema, siteIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

const affectationIds = z.preprocess((value) => value ?? [], uniqueIds(M.interlocuteurAffectationInvalid));

/**
 * POST /api/interlocuteurs and PUT /api/interlocuteurs/{id}. Only prenom and nom
 * are required (§5); an e-mail, when given, must be one. The affectations are the
 * whole set after the save: ids of the client's sites and installations (the
 * handler checks they belong to the client).
 */
export const interlocuteurBodySchema = z.object({
  nom: requiredText(M.interlocuteurNomPrenomRequired),
  prenom: requiredText(M.interlocuteurNomPrenomRequired),
  fonction: optionalText(),
  telephone: optionalText(30),
  email: optionalEmail(),
  client_id: requiredId(M.clientRequired),
  affect_sites: affectationIds,
  affect_installations: affectationIds,
});
export type InterlocuteurBody = z.output<typeof interlocuteurBodySchema>;
export type InterlocuteurBodyInput = z.input<typeof interlocuteurBodySchema>;

export const INTERLOCUTEUR_NIVEAUX = ['site', 'installation'] as const;
export const interlocuteurAffectationSchema = z.object({ niveau: z.enum(INTERLOCUTEUR_NIVEAUX), niveau_id: z.guid() });
export type InterlocuteurAffectation = z.infer<typeof interlocuteurAffectationSchema>;

/** The affectation list the UI reads, sites first. */
export function toInterlocuteurAffectations(affectSites: readonly string[], affectInstallations: readonly string[]): InterlocuteurAffectation[] {
  return [
    ...affectSites.map((id) => ({ niveau: 'site' as const, niveau_id: id })),
    ...affectInstallations.map((id) => ({ niveau: 'installation' as const, niveau_id: id })),
  ];
}

const namedRef = z.object({ id: z.guid(), nom: z.string() });

export const interlocuteurSchema = z.object({
  id: interlocuteurIdSchema,
  client_id: clientIdSchema,
  nom: z.string(),
  prenom: z.string(),
  fonction: z.string().nullable(),
  telephone: z.string().nullable(),
  email: z.string().nullable(),
  affectations: z.array(interlocuteurAffectationSchema),
  nb_sites: z.int().min(0),
  nb_installations: z.int().min(0),
  sites_affectes: z.array(namedRef).optional(),
  installations_affectees: z.array(namedRef).optional(),
  version: entityVersionSchema.optional(),
});
export type Interlocuteur = z.infer<typeof interlocuteurSchema>;
export const interlocuteursResponseSchema = z.array(interlocuteurSchema);

const interlocuteurFacts = {
  clientId: clientIdSchema,
  nom: z.string().min(1),
  prenom: z.string().min(1),
  fonction: z.string().nullable(),
  telephone: z.string().nullable(),
  email: z.string().nullable(),
  /** The body's affect_sites. */
  siteIds: z.array(siteIdSchema),
  /** The body's affect_installations. */
  installationIds: z.array(installationIdSchema),
};

export const interlocuteurCreatedEventSchema = defineEvent('InterlocuteurCreated', { interlocuteurId: interlocuteurIdSchema, ...interlocuteurFacts, createdAt: isoDateTime });
/** The whole contact after the change, affectations replaced as a set. */
export const interlocuteurUpdatedEventSchema = defineEvent('InterlocuteurUpdated', { interlocuteurId: interlocuteurIdSchema, ...interlocuteurFacts, updatedAt: isoDateTime });
export const interlocuteurDeletedEventSchema = defineEvent('InterlocuteurDeleted', { interlocuteurId: interlocuteurIdSchema, deletedAt: isoDateTime });

export const interlocuteurEventSchema = z.discriminatedUnion('type', [
  interlocuteurCreatedEventSchema,
  interlocuteurUpdatedEventSchema,
  interlocuteurDeletedEventSchema,
]);
export type InterlocuteurEvent = z.infer<typeof interlocuteurEventSchema>;
