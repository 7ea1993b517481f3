import { compareMetiers, metiersResponseSchema, type Metier } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { metierKeys } from './metier-keys';

/** GET /api/metiers, in table order (ordre, unnumbered last, then name). */
async function getMetiers(signal?: AbortSignal): Promise<Metier[]> {
  const answer = await apiClient.get<unknown>('/api/metiers', { signal });
  return metiersResponseSchema.parse(answer).sort(compareMetiers);
}

export const metiersQuery = () => queryOptions({ queryKey: metierKeys.list(), queryFn: ({ signal }) => getMetiers(signal) });

export function useMetierList(enabled = true) {
  return useQuery({ ...metiersQuery(), enabled });
}
