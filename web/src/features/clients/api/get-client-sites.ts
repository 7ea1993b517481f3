import { sitesWithInstallationsResponseSchema, type SiteWithInstallations } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** GET /api/clients/{id}/sites: the client's sites by name, each with its installations by name (the ticket pickers read it too). */
async function getClientSites(clientId: string, signal?: AbortSignal): Promise<SiteWithInstallations[]> {
  const answer = await apiClient.get<unknown>(`/api/clients/${encodeURIComponent(clientId)}/sites`, { signal });
  return sitesWithInstallationsResponseSchema.parse(answer);
}

export const clientSitesQuery = (clientId: string) =>
  queryOptions({ queryKey: clientKeys.sites(clientId), queryFn: ({ signal }) => getClientSites(clientId, signal) });

/** Waits for a client to be chosen (null: none yet). */
export function useClientSites(clientId: string | null) {
  return useQuery({ ...clientSitesQuery(clientId ?? ''), enabled: clientId !== null && clientId !== '' });
}
