import { metierSchema, type Metier, type MetierBody } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { metierKeys } from './metier-keys';

/** POST /api/metiers `{ nom, ordre, delai_inter, HO_stats }`. */
async function createMetier(body: MetierBody): Promise<Metier> {
  return metierSchema.parse(await apiClient.post<unknown>('/api/metiers', body));
}

export function useCreateMetier() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMetier, onSuccess: () => queryClient.invalidateQueries({ queryKey: metierKeys.lists() }) });
}
