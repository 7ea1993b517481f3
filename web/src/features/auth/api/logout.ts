import type { LogoutBody } from '@fsm/contracts';
import { apiClient } from '../../../lib/api-client';

/**
 * POST /api/logout: the server ends the session too, so a copy of the token
 * (a shared computer, a log) opens nothing any more. The token goes in the
 * body: the session is already gone locally when this is sent, and a refusal
 * must not touch whatever session the browser holds by then.
 */
export async function logoutOnServer(token: string): Promise<void> {
  const body: LogoutBody = { token };
  await apiClient.post('/api/logout', body, { auth: false });
}
