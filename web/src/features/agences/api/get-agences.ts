import { agencesResponseSchema, type Agence } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { agenceKeys } from './agence-keys';

/** GET /api/agences: the agencies of one's scope, by name. */
async function getAgences(signal?: AbortSignal): Promise<Agence[]> {
  const answer = await apiClient.get<unknown>('/api/agences', { signal });
  return agencesResponseSchema.parse(answer).sort((a, b) => a.nom.localeCompare(b.nom, 'fr'));
}

export const agencesQuery = () => queryOptions({ queryKey: agenceKeys.list(), queryFn: ({ signal }) => getAgences(signal) });

export function useAgences(enabled = true) {
  return useQuery({ ...agencesQuery(), enabled });
}
