import { agenceSchema, type Agence, type AgenceBodyInput, type EditVersion } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { agenceKeys } from './agence-keys';

interface UpdateAgenceInput {
  id: string;
  /** With the `version` it was loaded at: a stale one is refused with 409. */
  body: AgenceBodyInput & EditVersion;
}

/**
 * PUT /api/agences/{id}. The template builder sends the whole agency with
 * `id_template` (a template id or null); the agencies form leaves it out,
 * which keeps the current one. A 403 keeps the session (§6).
 */
async function updateAgence({ id, body }: UpdateAgenceInput): Promise<Agence> {
  return agenceSchema.parse(await apiClient.put<unknown>(`/api/agences/${encodeURIComponent(id)}`, body, { forbiddenIsError: true }));
}

export function useUpdateAgence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgence,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agenceKeys.lists() }),
  });
}
