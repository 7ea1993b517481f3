import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** DELETE /api/installations/{id}. */
async function deleteInstallation(id: string): Promise<void> {
  await apiClient.delete(`/api/installations/${encodeURIComponent(id)}`);
}

export function useDeleteInstallation(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteInstallation, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.sites(clientId) }) });
}
