import { sortTicketsForList } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from './ticket-keys';
import { parseTicketList, type TicketView } from './ticket-view';

/**
 * GET /api/tickets: every open ticket (ouvert, en_cours, intervention) in the
 * user's scope, in the list order of spec §4. The list's chips filter this one
 * answer on screen, so switching chips is instant and one live message
 * refreshes every view of it.
 */
export async function getOpenTickets(signal?: AbortSignal): Promise<TicketView[]> {
  const answer = await apiClient.get<unknown>('/api/tickets', { signal });
  return sortTicketsForList(parseTicketList(answer));
}

export const openTicketsQuery = () =>
  queryOptions({ queryKey: ticketKeys.openList(), queryFn: ({ signal }) => getOpenTickets(signal) });

export function useOpenTickets(enabled = true) {
  return useQuery({ ...openTicketsQuery(), enabled });
}
