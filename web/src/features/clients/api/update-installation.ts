import { installationSchema, type EditVersion, type Installation, type InstallationBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

interface UpdateInstallationInput {
  id: string;
  /** With the `version` the form was loaded at: a stale one is refused with 409. */
  body: InstallationBody & EditVersion;
}

/** PUT /api/installations/{id}. */
async function updateInstallation({ id, body }: UpdateInstallationInput): Promise<Installation> {
  return installationSchema.parse(await apiClient.put<unknown>(`/api/installations/${encodeURIComponent(id)}`, body));
}

export function useUpdateInstallation(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateInstallation, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.sites(clientId) }) });
}
