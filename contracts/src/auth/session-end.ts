import { z } from 'zod';

/*
 * How a session token travels and how a session ends (issue 17): the token
 * goes in an Authorization header or a message body, never in a URL (URLs end
 * up in access logs, proxies and browser history); Déconnexion revokes it on
 * the server; the live socket closes when it is revoked.
 */

/** The longest session token accepted anywhere (a JWT of a few hundred bytes in practice). */
export const SESSION_TOKEN_MAX_LENGTH = 4096;

export const SESSION_END_MESSAGES = {
  missingToken: 'Jeton de session manquant.',
} as const;

const sessionToken = z
  .string({ error: SESSION_END_MESSAGES.missingToken })
  .min(1, { error: SESSION_END_MESSAGES.missingToken })
  .max(SESSION_TOKEN_MAX_LENGTH, { error: SESSION_END_MESSAGES.missingToken });

/**
 * POST /api/logout: the token to end travels in the body. Holding it is the
 * proof (as in OAuth token revocation, RFC 7009), so the browser can send it
 * after it has already forgotten the session locally.
 */
export const logoutBodySchema = z.object({ token: sessionToken });
export type LogoutBody = z.infer<typeof logoutBodySchema>;
export const logoutResponseSchema = z.object({ success: z.literal(true) });

/** The first message of a live-update socket: its session token (GET /ws carries none in its URL). */
export const liveAuthMessageSchema = z.object({ type: z.literal('auth'), token: sessionToken });
export type LiveAuthMessage = z.infer<typeof liveAuthMessageSchema>;

/**
 * Close code of a live socket whose session is refused or has ended (revoked,
 * expired, account deleted, no auth message in time): the client stops
 * reconnecting and ends the session ('Session expirée').
 */
export const LIVE_SESSION_ENDED_CLOSE_CODE = 4401;

/** How long a live socket may stay open before it has authenticated. */
export const LIVE_AUTH_TIMEOUT_MS = 10_000;

/**
 * How long a download link (`?token=` bound to one file) stays valid. The
 * screens that show a link refresh it well before then.
 */
export const DOWNLOAD_LINK_TTL_SECONDS = 10 * 60;
