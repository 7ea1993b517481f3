import { telesurvAgenceAssignmentsResponseSchema, type TelesurvAgenceAssignment } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { telesurvKeys } from './telesurv-keys';

/** GET /api/telesurv/{id}/agences → every agency one may assign, with its `assigned` flag. */
async function getTelesurvAgences(accountId: string, signal?: AbortSignal): Promise<TelesurvAgenceAssignment[]> {
  const answer = await apiClient.get<unknown>(`/api/telesurv/${encodeURIComponent(accountId)}/agences`, { signal });
  return telesurvAgenceAssignmentsResponseSchema.parse(answer).sort((a, b) => a.nom.localeCompare(b.nom, 'fr'));
}

export const telesurvAgencesQuery = (accountId: string) =>
  queryOptions({ queryKey: telesurvKeys.agences(accountId), queryFn: ({ signal }) => getTelesurvAgences(accountId, signal) });

export function useTelesurvAgences(accountId: string, enabled = true) {
  return useQuery({ ...telesurvAgencesQuery(accountId), enabled });
}
