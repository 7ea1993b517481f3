import { TICKET_MESSAGES } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client';

/** What the server says of the form's QR key: valid, or the spec's invalid link. */
export type QrKeyCheck = 'valide' | 'invalide';

/**
 * GET /api/public/qr-keys/{key} (no token). Only a 404 carrying the spec's
 * invalid-link message means invalid: anything else (network, 429, a server
 * that does not know the route yet) leaves the form up, since the creation
 * checks the key again.
 */
async function checkQrKey(key: string, signal: AbortSignal): Promise<QrKeyCheck> {
  try {
    await apiRequest<unknown>(`/api/public/qr-keys/${encodeURIComponent(key)}`, { auth: false, signal });
    return 'valide';
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.serverMessage === TICKET_MESSAGES.invalidLink) return 'invalide';
    throw error;
  }
}

const qrKeyCheckOptions = (key: string) =>
  queryOptions({
    queryKey: ['public-ticket', 'qr-key', key] as const,
    queryFn: ({ signal }) => checkQrKey(key, signal),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export function useQrKeyCheck(key: string) {
  return useQuery(qrKeyCheckOptions(key));
}
