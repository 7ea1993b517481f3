import type { Ticket } from '@fsm/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { refreshLoadedPages, refreshPagedQueries } from '../../../lib/infinite-pages';
import { closedTicketsPagedList } from './get-closed-tickets';
import { TICKET_PAGE_SIZE, openTicketsPagedList } from './get-open-tickets';
import { ticketKeys, type ClosedTicketsFilters, type OpenTicketsPageFilters } from './ticket-keys';

/**
 * After a change to these tickets (a live message, the user's own command),
 * refreshes in each paged list on screen the first page (total, chip counts,
 * new tickets) and the loaded pages showing one of them. Invalidating
 * `ticketKeys.pages()` would refetch every loaded page instead.
 */
export function refreshTicketPages(queryClient: QueryClient, ids: readonly string[]): Promise<void> {
  const changed = new Set(ids);
  return refreshPagedQueries(queryClient, ticketKeys.pages(), (queryKey) => {
    const [, , kind, filters] = queryKey;
    if (kind === 'open') {
      return refreshLoadedPages(queryClient, queryKey, changed, openTicketsPagedList(filters as OpenTicketsPageFilters), TICKET_PAGE_SIZE);
    }
    if (kind === 'closed') {
      return refreshLoadedPages(queryClient, queryKey, changed, closedTicketsPagedList(filters as ClosedTicketsFilters), TICKET_PAGE_SIZE);
    }
    return undefined;
  });
}

/**
 * After the user's own command on tickets (take in charge, a visit, a quote
 * validated, a ticket added): the unpaged lists and the summary are reloaded,
 * the paged lists refresh only what concerns these tickets, and each ticket's
 * detail takes the answer when there is one, then is read again.
 */
export function refreshAfterTicketCommand(queryClient: QueryClient, ticketIds: readonly string[], answer?: Ticket | null): void {
  const [first] = ticketIds;
  if (answer && first !== undefined) queryClient.setQueryData(ticketKeys.detail(first), answer);
  for (const id of ticketIds) void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(id) });
  void queryClient.invalidateQueries({ queryKey: ticketKeys.lists() });
  void refreshTicketPages(queryClient, ticketIds);
  void queryClient.invalidateQueries({ queryKey: ticketKeys.summary() });
}
