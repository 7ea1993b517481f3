import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';
import { parseInterventions, type InterventionView } from '../../tickets/api/ticket-view';

/** GET /api/tickets/{id}/interventions: the re-interventions, oldest first. */
export async function getInterventions(ticketId: string, signal?: AbortSignal): Promise<InterventionView[]> {
  const answer = await apiClient.get<unknown>(`/api/tickets/${encodeURIComponent(ticketId)}/interventions`, { signal });
  return parseInterventions(answer).sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

const interventionsQuery = (ticketId: string) =>
  queryOptions({ queryKey: ticketKeys.interventions(ticketId), queryFn: ({ signal }) => getInterventions(ticketId, signal) });

export function useInterventions(ticketId: string) {
  return useQuery(interventionsQuery(ticketId));
}
