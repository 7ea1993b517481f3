import { z } from 'zod';
import { roleSchema } from './roles.js';

/**
 * The user returned by POST /api/login and kept in local storage. Permissions are
 * plain strings, not the catalogue enum: a session saved before a catalogue change
 * must still parse, and an unknown slug simply grants nothing.
 */
export const sessionUserSchema = z.object({
  id: z.guid(),
  role: roleSchema,
  prenom: z.string(),
  nom: z.string(),
  /** null for remote-surveillance accounts, which act for several agencies. */
  agence_id: z.guid().nullable(),
  agence_nom: z.string().nullable(),
  permissions: z.array(z.string()),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
