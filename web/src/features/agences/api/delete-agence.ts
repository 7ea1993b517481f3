import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { agenceKeys } from './agence-keys';

/** DELETE /api/agences/{id}; a 403 keeps the session (§6). */
async function deleteAgence(id: string): Promise<void> {
  await apiClient.delete(`/api/agences/${encodeURIComponent(id)}`, { forbiddenIsError: true });
}

export function useDeleteAgence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agenceKeys.lists() }),
  });
}
