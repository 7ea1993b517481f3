import { metiersResponseSchema, renumberMetiers, compareMetiers, type Metier } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { metierKeys } from './metier-keys';

/** A row in its new place, with the version it was listed at. */
type ReorderedMetier = Pick<Metier, 'id' | 'version'>;

/**
 * PUT /api/metiers/reorder `[{ id, ordre, version }]`, every row numbered
 * 1, 2, 3… in its new place (§4). The versions make the server refuse (409)
 * an order made on a list that changed meanwhile, which then reloads.
 */
async function reorderMetiers(rowsInNewOrder: readonly ReorderedMetier[]): Promise<Metier[]> {
  const items = renumberMetiers(rowsInNewOrder.map((row) => row.id)).map((item, index) => ({ ...item, version: rowsInNewOrder[index]?.version }));
  const answer = await apiClient.put<unknown>('/api/metiers/reorder', items);
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
    onMutate: async (rows) => {
      await queryClient.cancelQueries({ queryKey: metierKeys.list() });
      queryClient.setQueryData<Metier[]>(metierKeys.list(), (current) => {
        if (!current) return current;
        const byId = new Map(current.map((m) => [m.id, m]));
        return rows.flatMap(({ id }, index) => {
          const metier = byId.get(id);
          return metier ? [{ ...metier, ordre: index + 1 }] : [];
        });
      });
    },
    onSuccess: (list) => queryClient.setQueryData(metierKeys.list(), list),
    onError: () => queryClient.invalidateQueries({ queryKey: metierKeys.lists() }),
  });
}
