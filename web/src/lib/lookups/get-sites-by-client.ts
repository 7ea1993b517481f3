import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toSite, type SiteOption } from './lookup-types';

/** GET /api/sites/client/{id}: the client's sites, without installations (telesurveillance form). */
async function getSitesByClient(clientId: string, signal?: AbortSignal): Promise<SiteOption[]> {
  const answer = await apiClient.get<unknown>(`/api/sites/client/${encodeURIComponent(clientId)}`, { signal });
  return readRows(answer, toSite).sort(byName);
}

const sitesByClientQuery = (clientId: string) =>
  queryOptions({
    queryKey: lookupKeys.sites.byClient(clientId),
    queryFn: ({ signal }) => getSitesByClient(clientId, signal),
    staleTime: 5 * 60_000,
  });

export function useSitesByClient(clientId: string | null) {
  return useQuery({ ...sitesByClientQuery(clientId ?? ''), enabled: Boolean(clientId) });
}
