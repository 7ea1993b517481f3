import { siteSchema, type EditVersion, type Site, type SiteBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

interface UpdateSiteInput {
  id: string;
  /** With the `version` the form was loaded at: a stale one is refused with 409. */
  body: SiteBody & EditVersion;
}

/** PUT /api/sites/{id}. */
async function updateSite({ id, body }: UpdateSiteInput): Promise<Site> {
  return siteSchema.parse(await apiClient.put<unknown>(`/api/sites/${encodeURIComponent(id)}`, body));
}

export function useUpdateSite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateSite, onSuccess: (site) => queryClient.invalidateQueries({ queryKey: clientKeys.sites(site.client_id) }) });
}
