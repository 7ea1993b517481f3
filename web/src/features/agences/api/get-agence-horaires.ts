import { agenceHorairesResponseSchema, completeAgenceWeek, type AgenceHoraire } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { agenceKeys } from './agence-keys';

/** GET /api/agences/{id}/horaires: Monday to Friday, in order. */
async function getAgenceHoraires(agenceId: string, signal?: AbortSignal): Promise<AgenceHoraire[]> {
  const answer = await apiClient.get<unknown>(`/api/agences/${encodeURIComponent(agenceId)}/horaires`, { signal });
  return completeAgenceWeek(agenceHorairesResponseSchema.parse(answer));
}

export const agenceHorairesQuery = (agenceId: string) =>
  queryOptions({ queryKey: agenceKeys.horaires(agenceId), queryFn: ({ signal }) => getAgenceHoraires(agenceId, signal) });

export function useAgenceHoraires(agenceId: string | null) {
  return useQuery({ ...agenceHorairesQuery(agenceId ?? ''), enabled: agenceId !== null });
}
