import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

interface DeleteSiteInput {
  id: string;
  clientId: string;
}

/** DELETE /api/sites/{id}; its installations go with it. */
async function deleteSite({ id }: DeleteSiteInput): Promise<void> {
  await apiClient.delete(`/api/sites/${encodeURIComponent(id)}`);
}

export function useDeleteSite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteSite, onSuccess: (_data, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.sites(clientId) }) });
}
