import { agenceHorairesResponseSchema, type AgenceHoraire } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { agenceKeys } from './agence-keys';

interface SetAgenceHorairesInput {
  agenceId: string;
  horaires: AgenceHoraire[];
  /** The agency's version the week was edited on (sent as If-Match: the body is a list). */
  version?: number | undefined;
}

/** PUT /api/agences/{id}/horaires: the whole week, unticked half-days as null. A 403 keeps the session (§6). */
async function setAgenceHoraires({ agenceId, horaires, version }: SetAgenceHorairesInput): Promise<AgenceHoraire[]> {
  const answer = await apiClient.put<unknown>(`/api/agences/${encodeURIComponent(agenceId)}/horaires`, horaires, { forbiddenIsError: true, ifMatch: version });
  return agenceHorairesResponseSchema.parse(answer);
}

export function useSetAgenceHoraires() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAgenceHoraires,
    onSuccess: (week, { agenceId }) => queryClient.setQueryData(agenceKeys.horaires(agenceId), week),
  });
}
