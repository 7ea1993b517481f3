import { openTicketsPageSchema, sortTicketsForList, type OpenTicketsPage, type Ticket } from '@fsm/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { keysetPagesQuery, type PageCursor, type PagedList } from '../../../lib/infinite-pages';
import { ticketKeys, type OpenTicketsPageFilters } from './ticket-keys';
import { InvalidTicketAnswerError, isWholeTicketList, parseTicketList } from './ticket-view';

/**
 * GET /api/tickets: every open ticket (ouvert, en_cours, intervention) in the
 * user's scope, in the list order of spec §4 (the home summary's count).
 */
export async function getOpenTickets(signal?: AbortSignal): Promise<Ticket[]> {
  const answer = await apiClient.get<unknown>('/api/tickets', { signal });
  return sortTicketsForList(parseTicketList(answer));
}


// ─── Pages (issue #19) ───────────────────────────────────────────────────────

/** Rows per page of the ticket lists: a few screens of cards. */
export const TICKET_PAGE_SIZE = 60;

const openTicketsPageInfoSchema = openTicketsPageSchema.pick({ next_cursor: true, total: true, counts: true });

export interface OpenTicketsPageView extends Omit<OpenTicketsPage, 'tickets'> {
  tickets: Ticket[];
}

/**
 * The page's rows are read as the unpaged list's are. A whole list without
 * paging fields (a server that ignores `limit`) is one last page, without
 * chip counts; anything else is no answer.
 */
function parseOpenTicketsPage(answer: unknown): OpenTicketsPageView {
  const tickets = parseTicketList(answer);
  const info = openTicketsPageInfoSchema.safeParse(answer);
  if (info.success) return { ...info.data, tickets };
  if (!isWholeTicketList(answer)) throw new InvalidTicketAnswerError();
  return { tickets, next_cursor: null, total: tickets.length, counts: null };
}

/**
 * GET /api/tickets?limit&cursor with the chip and the pending-quote box as
 * server filters, in the list order of spec §4; the first page also counts
 * each chip.
 */
async function getOpenTicketsPage(
  filters: OpenTicketsPageFilters,
  cursor: PageCursor,
  limit = TICKET_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<OpenTicketsPageView> {
  const answer = await apiClient.get<unknown>('/api/tickets', {
    signal,
    query: {
      statut: filters.statut,
      urgent: filters.urgent ? 1 : undefined,
      devis_attente: filters.devis_attente ? 1 : undefined,
      en_retard: filters.en_retard ? 1 : undefined,
      // The « En retard » chip's count (issue 32, opt-in on the server).
      avec_retard: 1,
      limit,
      cursor: cursor ?? undefined,
    },
  });
  return parseOpenTicketsPage(answer);
}

export const openTicketsPagedList = (filters: OpenTicketsPageFilters): PagedList<OpenTicketsPageView, Ticket> => ({
  rows: (page) => page.tickets,
  withRows: (page, tickets) => ({ ...page, tickets }),
  fetchPage: (cursor, limit, signal) => getOpenTicketsPage(filters, cursor, limit, signal),
});

export const openTicketsPagesQuery = (filters: OpenTicketsPageFilters) =>
  keysetPagesQuery(ticketKeys.openPages(filters), openTicketsPagedList(filters), TICKET_PAGE_SIZE);

/** Keeps the previous chip's cards on screen while the next one loads. */
export function useOpenTicketsPages(filters: OpenTicketsPageFilters, enabled = true) {
  return useInfiniteQuery({ ...openTicketsPagesQuery(filters), enabled, placeholderData: keepPreviousData });
}
