import { agenceSchema, type Agence, type AgenceBodyInput } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { agenceKeys } from './agence-keys';

/** POST /api/agences → the agency, open Monday to Friday with the default hours. A 403 keeps the session (§6). */
async function createAgence(body: AgenceBodyInput): Promise<Agence> {
  return agenceSchema.parse(await apiClient.post<unknown>('/api/agences', body, { forbiddenIsError: true }));
}

export function useCreateAgence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agenceKeys.lists() }),
  });
}
