import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { lookupKeys } from './lookup-keys';
import { readRows, toMetier, type MetierOption } from './lookup-types';

/** GET /api/metiers, in the catalogue's own order. */
export async function getMetiers(signal?: AbortSignal): Promise<MetierOption[]> {
  const answer = await apiClient.get<unknown>('/api/metiers', { signal });
  return readRows(answer, toMetier);
}

export const metiersQuery = () =>
  queryOptions({ queryKey: lookupKeys.metiers.list(), queryFn: ({ signal }) => getMetiers(signal), staleTime: 5 * 60_000 });

export function useMetiers(enabled = true) {
  return useQuery({ ...metiersQuery(), enabled });
}
