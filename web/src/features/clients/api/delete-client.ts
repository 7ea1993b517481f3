import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

/** DELETE /api/clients/{id}; its sites, installations and contacts go with it. */
async function deleteClient(id: string): Promise<void> {
  await apiClient.delete(`/api/clients/${encodeURIComponent(id)}`);
}

export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteClient, onSuccess: () => queryClient.invalidateQueries({ queryKey: clientKeys.lists() }) });
}
