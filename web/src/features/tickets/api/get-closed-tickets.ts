import { closedTicketsPageSchema, sortTicketsForList, type ClosedTicketsPage, type Ticket } from '@fsm/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { keysetPagesQuery, type PageCursor, type PagedList } from '../../../lib/infinite-pages';
import { TICKET_PAGE_SIZE } from './get-open-tickets';
import { ticketKeys, type ClosedTicketsFilters } from './ticket-keys';
import { InvalidTicketAnswerError, isWholeTicketList, parseTicketList } from './ticket-view';

/** Query of GET /api/tickets/clos (spec §7); days are `YYYY-MM-DD`, empty means "any". */
function closedTicketsQueryParams(filters: ClosedTicketsFilters) {
  return {
    date_debut: filters.date_debut,
    date_fin: filters.date_fin,
    client_id: filters.client_id,
    site_id: filters.site_id,
    installation_id: filters.installation_id,
    technicien_id: filters.technicien_id,
    metier_id: filters.metier_id,
    devis_attente: filters.devis_attente ? 1 : undefined,
    q: filters.q ? filters.q : undefined,
  };
}

/** Every closed ticket matching the filters, in one answer (the home summary's count). */
export async function getClosedTickets(filters: ClosedTicketsFilters, signal?: AbortSignal): Promise<Ticket[]> {
  const answer = await apiClient.get<unknown>('/api/tickets/clos', { signal, query: closedTicketsQueryParams(filters) });
  return sortTicketsForList(parseTicketList(answer));
}

// ─── Pages (issue #19) ───────────────────────────────────────────────────────

const closedTicketsPageInfoSchema = closedTicketsPageSchema.pick({ next_cursor: true, total: true });

export interface ClosedTicketsPageView extends Omit<ClosedTicketsPage, 'tickets'> {
  tickets: Ticket[];
}

/** As `parseOpenTicketsPage`: a whole list is one last page. */
function parseClosedTicketsPage(answer: unknown): ClosedTicketsPageView {
  const tickets = parseTicketList(answer);
  const info = closedTicketsPageInfoSchema.safeParse(answer);
  if (info.success) return { ...info.data, tickets };
  if (!isWholeTicketList(answer)) throw new InvalidTicketAnswerError();
  return { tickets, next_cursor: null, total: tickets.length };
}

/** GET /api/tickets/clos?limit&cursor: one page of the closed search, in the server's order. */
async function getClosedTicketsPage(
  filters: ClosedTicketsFilters,
  cursor: PageCursor,
  limit = TICKET_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<ClosedTicketsPageView> {
  const answer = await apiClient.get<unknown>('/api/tickets/clos', {
    signal,
    query: { ...closedTicketsQueryParams(filters), limit, cursor: cursor ?? undefined },
  });
  return parseClosedTicketsPage(answer);
}

export const closedTicketsPagedList = (filters: ClosedTicketsFilters): PagedList<ClosedTicketsPageView, Ticket> => ({
  rows: (page) => page.tickets,
  withRows: (page, tickets) => ({ ...page, tickets }),
  fetchPage: (cursor, limit, signal) => getClosedTicketsPage(filters, cursor, limit, signal),
});

const closedTicketsPagesQuery = (filters: ClosedTicketsFilters) =>
  keysetPagesQuery(ticketKeys.closedPages(filters), closedTicketsPagedList(filters), TICKET_PAGE_SIZE);

/** Keeps the previous answer on screen while a changed filter loads. */
export function useClosedTicketsPages(filters: ClosedTicketsFilters, enabled = true) {
  return useInfiniteQuery({ ...closedTicketsPagesQuery(filters), enabled, placeholderData: keepPreviousData });
}
