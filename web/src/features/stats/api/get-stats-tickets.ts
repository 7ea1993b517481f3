import { statsTicketsResponseSchema, type StatsTicketsResponse } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { statsKeys, type StatsFilters } from './stats-keys';

/** The query string of both the figures and their CSV; 'Tous' / 'Toutes' are left out. */
export function statsQueryParams(filters: StatsFilters) {
  return { from: filters.from, to: filters.to, metier_id: filters.metier_id || undefined, agence_id: filters.agence_id || undefined };
}

/** GET /api/stats/tickets?from&to&metier_id&agence_id → `{ summary, items }`. */
export async function getStatsTickets(filters: StatsFilters, signal?: AbortSignal): Promise<StatsTicketsResponse> {
  const answer = await apiClient.get<unknown>('/api/stats/tickets', { signal, query: statsQueryParams(filters) });
  return statsTicketsResponseSchema.parse(answer);
}

export const statsTicketsQuery = (filters: StatsFilters) =>
  queryOptions({ queryKey: statsKeys.ticketsFor(filters), queryFn: ({ signal }) => getStatsTickets(filters, signal) });

export function useStatsTickets(filters: StatsFilters, enabled = true) {
  return useQuery({ ...statsTicketsQuery(filters), enabled });
}
