import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { metierKeys } from './metier-keys';

/** DELETE /api/metiers/{id}. */
async function deleteMetier(id: string): Promise<void> {
  await apiClient.delete(`/api/metiers/${encodeURIComponent(id)}`);
}

export function useDeleteMetier() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMetier, onSuccess: () => queryClient.invalidateQueries({ queryKey: metierKeys.lists() }) });
}
