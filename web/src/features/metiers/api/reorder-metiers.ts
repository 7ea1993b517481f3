import { metiersResponseSchema, renumberMetiers, compareMetiers, type Metier } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { metierKeys } from './metier-keys';

/** PUT /api/metiers/reorder `[{ id, ordre }]`, every row numbered 1, 2, 3… in its new place (§4). */
export async function reorderMetiers(idsInNewOrder: readonly string[]): Promise<Metier[]> {
  const answer = await apiClient.put<unknown>('/api/metiers/reorder', renumberMetiers(idsInNewOrder));
  return metiersResponseSchema.parse(answer).sort(compareMetiers);
}

/**
 * Shows the new order at once; the server's answer replaces it. A failure
 * reloads the list from the server (§4 "A failed save reloads the list").
 */
export function useReorderMetiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderMetiers,
    onMutate: async (ids) => {
      await queryClient.cancelQueries({ queryKey: metierKeys.list() });
      queryClient.setQueryData<Metier[]>(metierKeys.list(), (current) => {
        if (!current) return current;
        const byId = new Map(current.map((m) => [m.id, m]));
        return ids.flatMap((id, index) => {
          const metier = byId.get(id);
          return metier ? [{ ...metier, ordre: index + 1 }] : [];
        });
      });
    },
    onSuccess: (list) => queryClient.setQueryData(metierKeys.list(), list),
    onError: () => queryClient.invalidateQueries({ queryKey: metierKeys.lists() }),
  });
}
