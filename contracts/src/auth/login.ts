import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, TICKET_TEXT_MAX } from '../tickets/ticket-constants.js';
import { lookupText } from '../tickets/ticket-fields.js';
import { LOGIN_MESSAGES } from '../tickets/ticket-messages.js';

/** POST /api/login (spec §7). */
export const loginBodySchema = z.object({
  email: lookupText(LOGIN_MESSAGES.missingCredentials, TICKET_TEXT_MAX.email),
  // Never trimmed: a space is a legitimate password character.
  motdepasse: z
    .string({ error: LOGIN_MESSAGES.missingCredentials })
    .min(1, { error: LOGIN_MESSAGES.missingCredentials })
    .max(PASSWORD_MAX_LENGTH, { error: LOGIN_MESSAGES.invalidCredentials }),
});
export type LoginBody = z.infer<typeof loginBodySchema>;
