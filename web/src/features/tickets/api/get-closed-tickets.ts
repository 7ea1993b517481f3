import { sortTicketsForList } from '@fsm/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from './ticket-keys';
import { parseTicketList, type TicketView } from './ticket-view';

/** Query of GET /api/tickets/clos (spec §7); days are `YYYY-MM-DD`, empty means "any". */
export interface ClosedTicketsFilters {
  date_debut: string;
  date_fin: string;
  client_id: string;
  site_id: string;
  installation_id: string;
  technicien_id: string;
  metier_id: string;
  devis_attente: boolean;
}

export async function getClosedTickets(filters: ClosedTicketsFilters, signal?: AbortSignal): Promise<TicketView[]> {
  const answer = await apiClient.get<unknown>('/api/tickets/clos', {
    signal,
    query: {
      date_debut: filters.date_debut,
      date_fin: filters.date_fin,
      client_id: filters.client_id,
      site_id: filters.site_id,
      installation_id: filters.installation_id,
      technicien_id: filters.technicien_id,
      metier_id: filters.metier_id,
      devis_attente: filters.devis_attente ? 1 : undefined,
    },
  });
  return sortTicketsForList(parseTicketList(answer));
}

export const closedTicketsQuery = (filters: ClosedTicketsFilters) =>
  queryOptions({ queryKey: ticketKeys.closedList(filters), queryFn: ({ signal }) => getClosedTickets(filters, signal) });

/** Keeps the previous answer on screen while a changed filter loads. */
export function useClosedTickets(filters: ClosedTicketsFilters, enabled = true) {
  return useQuery({ ...closedTicketsQuery(filters), enabled, placeholderData: keepPreviousData });
}
