import { ApiError } from '../../lib/api-client';

export const LOGIN_MESSAGES = {
  invalidCredentials: 'Identifiants invalides',
  serverError: 'Erreur serveur',
  /** Shown on the login screen after the server refused the token (spec §7 'Session expirée'). */
  sessionExpired: 'Session expirée. Merci de vous reconnecter.',
} as const;

/**
 * Spec §8: an HTTP failure reads 'Identifiants invalides', a network failure
 * 'Erreur serveur'. A 5xx (or an unreadable answer) is the server's fault, not
 * the user's, so it also reads 'Erreur serveur'; a 429 shows the server's own
 * text when it gives one (e.g. "too many attempts").
 */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status >= 500) return LOGIN_MESSAGES.serverError;
    if (error.status === 429 && error.serverMessage) return error.serverMessage;
    return LOGIN_MESSAGES.invalidCredentials;
  }
  return LOGIN_MESSAGES.serverError;
}
