import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toInstallation, type InstallationOption } from './lookup-types';

/** GET /api/sites/{id}/installations (telesurveillance form). */
async function getSiteInstallations(siteId: string, signal?: AbortSignal): Promise<InstallationOption[]> {
  const answer = await apiClient.get<unknown>(`/api/sites/${encodeURIComponent(siteId)}/installations`, { signal });
  return readRows(answer, toInstallation).sort(byName);
}

const siteInstallationsQuery = (siteId: string) =>
  queryOptions({
    queryKey: lookupKeys.sites.installations(siteId),
    queryFn: ({ signal }) => getSiteInstallations(siteId, signal),
    staleTime: 5 * 60_000,
  });

export function useSiteInstallations(siteId: string | null) {
  return useQuery({ ...siteInstallationsQuery(siteId ?? ''), enabled: Boolean(siteId) });
}
