import { siteSchema, type Site, type SiteBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** POST /api/sites `{ nom, adresse, ville, code_postal, client_id }`. */
async function createSite(body: SiteBody): Promise<Site> {
  return siteSchema.parse(await apiClient.post<unknown>('/api/sites', body));
}

export function useCreateSite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createSite, onSuccess: (site) => queryClient.invalidateQueries({ queryKey: clientKeys.sites(site.client_id) }) });
}
