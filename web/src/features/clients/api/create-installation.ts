import { installationSchema, type Installation, type InstallationBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** POST /api/installations `{ nom, id_metier, description, delai, astreinte, site_id }`. */
async function createInstallation(body: InstallationBody): Promise<Installation> {
  return installationSchema.parse(await apiClient.post<unknown>('/api/installations', body));
}

/** The client's sites carry the installations: that is what is refetched. */
export function useCreateInstallation(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createInstallation, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.sites(clientId) }) });
}
