import type { Ticket } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';
import { parseTicket } from '../../tickets/api/ticket-view';

/** GET /api/tickets/{id}. */
async function getTicket(ticketId: string, signal?: AbortSignal): Promise<Ticket> {
  return parseTicket(await apiClient.get<unknown>(`/api/tickets/${encodeURIComponent(ticketId)}`, { signal }));
}

const ticketQuery = (ticketId: string) =>
  queryOptions({ queryKey: ticketKeys.detail(ticketId), queryFn: ({ signal }) => getTicket(ticketId, signal) });

export function useTicket(ticketId: string) {
  return useQuery(ticketQuery(ticketId));
}
