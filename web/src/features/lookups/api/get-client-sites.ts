import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toSite, type SiteOption } from './lookup-types';

/** GET /api/clients/{id}/sites: the client's sites, each with its installations. */
export async function getClientSites(clientId: string, signal?: AbortSignal): Promise<SiteOption[]> {
  const answer = await apiClient.get<unknown>(`/api/clients/${encodeURIComponent(clientId)}/sites`, { signal });
  return readRows(answer, toSite)
    .map((site) => ({ ...site, installations: [...site.installations].sort(byName) }))
    .sort(byName);
}

export const clientSitesQuery = (clientId: string) =>
  queryOptions({
    queryKey: lookupKeys.clients.sitesWithInstallations(clientId),
    queryFn: ({ signal }) => getClientSites(clientId, signal),
    staleTime: 5 * 60_000,
  });

export function useClientSites(clientId: string | null) {
  return useQuery({ ...clientSitesQuery(clientId ?? ''), enabled: Boolean(clientId) });
}
