import { agenceOptionSchema, type AgenceOption } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

const optionsSchema = agenceOptionSchema.array();

/** GET /api/utilisateurs/agences: every agency for admin_plus, one's own otherwise. */
async function getUserAgences(signal?: AbortSignal): Promise<AgenceOption[]> {
  const answer = await apiClient.get<unknown>('/api/utilisateurs/agences', { signal });
  return optionsSchema.parse(answer).sort((a, b) => a.nom.localeCompare(b.nom, 'fr'));
}

const userAgencesQuery = () => queryOptions({ queryKey: userKeys.agences(), queryFn: ({ signal }) => getUserAgences(signal) });

export function useUserAgences(enabled = true) {
  return useQuery({ ...userAgencesQuery(), enabled });
}
