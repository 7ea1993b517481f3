import { z } from 'zod';
import { normalizePermissionSlugs, permissionSlugSchema } from '../auth/permissions.js';
import { roleSchema, staffRoleSchema } from '../auth/roles.js';
import { isPasswordAcceptable } from '../auth/password.js';
import { PASSWORD_MAX_LENGTH } from '../tickets/ticket-constants.js';
import { defineEvent, isoDateTime, requiredEmail, requiredId, requiredText } from './fields.js';
import { agenceIdSchema, userIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { entityVersionSchema } from './version.js';

export const USERS_PAGE_SIZE = 10;

// ---------------------------------------------------------------------------
// Passwords: accepted in bodies, never stored in events (credentials table)
// ---------------------------------------------------------------------------

/*
 * Every password we set follows the change-password rule of tickets.md §5
 * (isPasswordAcceptable): at least 8 characters with a letter, a digit and a
 * special character.
 */

/** Not trimmed: spaces may be part of a password. */
export function userPasswordField(requiredMessage: string) {
  return z
    .string({ error: requiredMessage })
    .min(1, requiredMessage)
    .max(PASSWORD_MAX_LENGTH, M.passwordPolicy)
    .refine(isPasswordAcceptable, M.passwordPolicy);
}

/** On edit, an empty password means "keep the current one". */
const optionalPassword = z.preprocess((value) => (value === '' || value === null ? undefined : value), userPasswordField(M.userPasswordRequired).optional());

// ---------------------------------------------------------------------------
// Staff users (Utilisateurs screen)
// ---------------------------------------------------------------------------

/** What the user aggregate decides on: the body without the password. */
export const userFieldsSchema = z.object({
  nom: requiredText(M.userNomRequired),
  prenom: requiredText(M.userPrenomRequired),
  email: requiredEmail(M.userEmailRequired),
  telephone: requiredText(M.userTelephoneRequired, 30),
  role: staffRoleSchema,
  agence_id: requiredId(M.agenceRequired),
});
export type UserFields = z.output<typeof userFieldsSchema>;
export type UserFieldsInput = z.input<typeof userFieldsSchema>;

/** POST /api/utilisateurs: the first password is set by whoever creates the user. */
export const userCreateBodySchema = userFieldsSchema.extend({ motdepasse: userPasswordField(M.userPasswordRequired) });
export type UserCreateBody = z.output<typeof userCreateBodySchema>;
/** PUT /api/utilisateurs/{id}: a password resets it, none keeps it. */
export const userUpdateBodySchema = userFieldsSchema.extend({ motdepasse: optionalPassword });
export type UserUpdateBody = z.output<typeof userUpdateBodySchema>;

export const userSchema = z.object({
  id: userIdSchema,
  nom: z.string(),
  prenom: z.string(),
  email: z.string(),
  telephone: z.string().nullable(),
  role: roleSchema,
  agence_id: agenceIdSchema.nullable(),
  /** Shown in the agency column that admin_plus sees. */
  agence_nom: z.string().nullable().optional(),
  version: entityVersionSchema.optional(),
});
export type User = z.infer<typeof userSchema>;
export const usersResponseSchema = z.array(userSchema);

/** PUT /api/utilisateurs/{id}/permissions: the whole set, unknown slugs refused. */
export const userPermissionsBodySchema = z.object({
  permissions: z.array(permissionSlugSchema, { error: 'Les permissions doivent être une liste.' }).transform(normalizePermissionSlugs),
});
export type UserPermissionsBody = z.output<typeof userPermissionsBodySchema>;
export const userPermissionsResponseSchema = z.object({ permissions: z.array(z.string()), version: entityVersionSchema.optional() });
export type UserPermissionsResponse = z.infer<typeof userPermissionsResponseSchema>;

/** The `{ success, error }` answer that several management writes return. */
export const managementResultResponseSchema = z.object({ success: z.boolean(), error: z.string().optional() });
export type ManagementResultResponse = z.infer<typeof managementResultResponseSchema>;
/** The answer of a create: the id the server chose. */
/** `{ id }` of POST /api/templates (§7), with the new fiche's version for its next save. */
export const managementCreatedResponseSchema = z.object({ id: z.guid(), version: entityVersionSchema.optional() });

// ---------------------------------------------------------------------------
// Events (staff users and remote-surveillance accounts share them)
// ---------------------------------------------------------------------------

const userFacts = {
  role: roleSchema,
  nom: z.string().min(1),
  /** '' for remote-surveillance accounts, which have no first name. */
  prenom: z.string(),
  email: z.string().min(1),
  telephone: z.string().nullable(),
  /** null for remote-surveillance accounts: their agencies come with TelesurvAgencesSet. */
  agenceId: agenceIdSchema.nullable(),
};

export const userCreatedEventSchema = defineEvent('UserCreated', { userId: userIdSchema, ...userFacts, createdAt: isoDateTime });
/** The whole user after the change. */
export const userUpdatedEventSchema = defineEvent('UserUpdated', { userId: userIdSchema, ...userFacts, updatedAt: isoDateTime });
export const userDeletedEventSchema = defineEvent('UserDeleted', { userId: userIdSchema, deletedAt: isoDateTime });
/**
 * The whole permission set. Slugs are plain strings here: an event stays
 * readable if a slug ever leaves the catalogue.
 */
export const userPermissionsSetEventSchema = defineEvent('UserPermissionsSet', {
  userId: userIdSchema,
  permissions: z.array(z.string()),
  updatedAt: isoDateTime,
});
/** The whole set of agencies a remote-surveillance account acts for (§4: replaced as a whole). */
export const telesurvAgencesSetEventSchema = defineEvent('TelesurvAgencesSet', {
  userId: userIdSchema,
  agenceIds: z.array(agenceIdSchema),
  updatedAt: isoDateTime,
});

export const userEventSchema = z.discriminatedUnion('type', [
  userCreatedEventSchema,
  userUpdatedEventSchema,
  userDeletedEventSchema,
  userPermissionsSetEventSchema,
  telesurvAgencesSetEventSchema,
]);
export type UserEvent = z.infer<typeof userEventSchema>;
