import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** DELETE /api/utilisateurs/{id}. */
async function deleteUser(id: string): Promise<void> {
  await apiClient.delete(`/api/utilisateurs/${encodeURIComponent(id)}`);
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteUser, onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.lists() }) });
}
