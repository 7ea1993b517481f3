import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toAgence, type AgenceOption } from './lookup-types';

/** GET /api/telesurv/me/agences: the agencies a telesurveillance account works for. */
async function getTelesurvAgences(signal?: AbortSignal): Promise<AgenceOption[]> {
  const answer = await apiClient.get<unknown>('/api/telesurv/me/agences', { signal });
  return readRows(answer, toAgence).sort(byName);
}

const telesurvAgencesQuery = () =>
  queryOptions({ queryKey: lookupKeys.agences.mine(), queryFn: ({ signal }) => getTelesurvAgences(signal), staleTime: 5 * 60_000 });

export function useTelesurvAgences() {
  return useQuery(telesurvAgencesQuery());
}
