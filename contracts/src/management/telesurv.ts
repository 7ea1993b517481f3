import { z } from 'zod';
import { optionalText, requiredEmail, requiredText, uniqueIds } from './fields.js';
import { userIdSchema } from './ids.js';
import { MANAGEMENT_MESSAGES as M } from './messages.js';
import { userPasswordField } from './user.js';
import { entityVersionSchema } from './version.js';

/*
 * A remote-surveillance account is a user with role telesurveillance, written
 * by the user aggregate (UserCreated, UserUpdated, UserDeleted,
 * TelesurvAgencesSet). These are the bodies and answers of /api/telesurv.
 */

/** An account's fields; `required` is the message of a missing name or e-mail. */
const telesurvFields = (required: string) =>
  z.object({
    nom: requiredText(required),
    email: requiredEmail(required),
    telephone: optionalText(30),
  });

/** What the aggregate decides on at creation (the password goes to the credentials table). */
export const telesurvAccountFieldsSchema = telesurvFields(M.telesurvFieldsRequired);
export type TelesurvAccountFields = z.output<typeof telesurvAccountFieldsSchema>;
export type TelesurvAccountFieldsInput = z.input<typeof telesurvAccountFieldsSchema>;

/** POST /api/telesurv. */
export const telesurvCreateBodySchema = telesurvAccountFieldsSchema.extend({ motdepasse: userPasswordField(M.telesurvFieldsRequired) });
export type TelesurvCreateBody = z.output<typeof telesurvCreateBodySchema>;

/** PUT /api/telesurv/{id} (not shown in the spec): same fields, an empty password keeps the current one. */
export const telesurvAccountUpdateFieldsSchema = telesurvFields(M.telesurvNomEmailRequired);
export type TelesurvAccountUpdateFields = z.output<typeof telesurvAccountUpdateFieldsSchema>;
export type TelesurvAccountUpdateFieldsInput = z.input<typeof telesurvAccountUpdateFieldsSchema>;
export const telesurvUpdateBodySchema = telesurvAccountUpdateFieldsSchema.extend({
  motdepasse: z.preprocess((value) => (value === '' || value === null ? undefined : value), userPasswordField(M.telesurvFieldsRequired).optional()),
});
export type TelesurvUpdateBody = z.output<typeof telesurvUpdateBodySchema>;

/** PUT /api/telesurv/{id}/agences: the whole set; an empty list unassigns every agency. */
export const telesurvAgencesBodySchema = z.object({ agences: uniqueIds(M.telesurvAgenceInvalid) });
export type TelesurvAgencesBody = z.output<typeof telesurvAgencesBodySchema>;

export const telesurvAccountSchema = z.object({
  id: userIdSchema,
  nom: z.string(),
  email: z.string(),
  telephone: z.string().nullable(),
  agences_count: z.int().min(0),
  version: entityVersionSchema.optional(),
  /**
   * Also assigned to a live agency outside the caller's scope (never for
   * admin_plus): the caller may edit its name, e-mail and phone, not reset its
   * password nor delete it (403 telesurvSharedOutsideScope). Absent means false.
   */
  partage_hors_perimetre: z.boolean().optional(),
});
export type TelesurvAccount = z.infer<typeof telesurvAccountSchema>;
export const telesurvAccountsResponseSchema = z.array(telesurvAccountSchema);

/** GET /api/telesurv/{id}/agences: every agency the caller may assign, with a flag. */
export const telesurvAgenceAssignmentSchema = z.object({ id: z.guid(), nom: z.string(), assigned: z.boolean() });
export type TelesurvAgenceAssignment = z.infer<typeof telesurvAgenceAssignmentSchema>;
export const telesurvAgenceAssignmentsResponseSchema = z.array(telesurvAgenceAssignmentSchema);
