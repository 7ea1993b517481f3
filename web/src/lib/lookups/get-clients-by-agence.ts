import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toClient, type ClientOption } from './lookup-types';

/** GET /api/clients/by-agence/{agenceId} (telesurveillance form). */
async function getClientsByAgence(agenceId: string, signal?: AbortSignal): Promise<ClientOption[]> {
  const answer = await apiClient.get<unknown>(`/api/clients/by-agence/${encodeURIComponent(agenceId)}`, { signal });
  return readRows(answer, toClient).sort(byName);
}

const clientsByAgenceQuery = (agenceId: string) =>
  queryOptions({
    queryKey: lookupKeys.clients.byAgence(agenceId),
    queryFn: ({ signal }) => getClientsByAgence(agenceId, signal),
    staleTime: 5 * 60_000,
  });

export function useClientsByAgence(agenceId: string | null) {
  return useQuery({ ...clientsByAgenceQuery(agenceId ?? ''), enabled: Boolean(agenceId) });
}
