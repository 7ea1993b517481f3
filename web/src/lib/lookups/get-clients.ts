import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { lookupKeys } from './lookup-keys';
import { byName, readRows, toClient, type ClientOption } from './lookup-types';

/** GET /api/clients: every client the user may see (filters and pickers). */
async function getClients(signal?: AbortSignal): Promise<ClientOption[]> {
  const answer = await apiClient.get<unknown>('/api/clients', { signal });
  return readRows(answer, toClient).sort(byName);
}

const clientsQuery = () =>
  queryOptions({ queryKey: lookupKeys.clients.list(), queryFn: ({ signal }) => getClients(signal), staleTime: 5 * 60_000 });

export function useClients(enabled = true) {
  return useQuery({ ...clientsQuery(), enabled });
}
