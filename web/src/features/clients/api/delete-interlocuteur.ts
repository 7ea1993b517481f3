import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { clientKeys } from './client-keys';

interface DeleteInterlocuteurInput {
  id: string;
  clientId: string;
}

/** DELETE /api/interlocuteurs/{id}. */
async function deleteInterlocuteur({ id }: DeleteInterlocuteurInput): Promise<void> {
  await apiClient.delete(`/api/interlocuteurs/${encodeURIComponent(id)}`);
}

export function useDeleteInterlocuteur() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteInterlocuteur,
    onSuccess: (_data, { clientId }) => queryClient.invalidateQueries({ queryKey: clientKeys.contacts.byClient(clientId) }),
  });
}
