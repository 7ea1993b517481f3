import { metierSchema, type EditVersion, type Metier, type MetierBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { metierKeys } from './metier-keys';

interface UpdateMetierInput {
  id: string;
  /** With the `version` the trade was listed at: a stale one is refused with 409. */
  body: MetierBody & EditVersion;
}

/** PUT /api/metiers/{id} with the whole trade (the HO_stats toggle too, §7). */
async function updateMetier({ id, body }: UpdateMetierInput): Promise<Metier> {
  return metierSchema.parse(await apiClient.put<unknown>(`/api/metiers/${encodeURIComponent(id)}`, body));
}

export function useUpdateMetier() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateMetier, onSettled: () => queryClient.invalidateQueries({ queryKey: metierKeys.lists() }) });
}
