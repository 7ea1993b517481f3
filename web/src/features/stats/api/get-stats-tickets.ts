import { statsTicketsPageSchema, type StatsTicketItem, type StatsTicketsPage } from '@fsm/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { keysetPagesQuery, type PageCursor, type PagedList } from '../../../lib/infinite-pages';
import { statsKeys, type StatsFilters } from './stats-keys';

/** Rows per page of the tickets table. */
export const STATS_PAGE_SIZE = 100;

/** The query string of both the figures and their CSV; 'Tous' / 'Toutes' are left out. */
export function statsQueryParams(filters: StatsFilters) {
  return { from: filters.from, to: filters.to, metier_id: filters.metier_id || undefined, agence_id: filters.agence_id || undefined };
}

/**
 * GET /api/stats/tickets?from&to&metier_id&agence_id&limit&cursor → one page
 * of `items`; the first page also brings `summary` and `weekly`, computed by
 * the server over the whole window.
 */
async function getStatsTicketsPage(filters: StatsFilters, cursor: PageCursor, limit = STATS_PAGE_SIZE, signal?: AbortSignal): Promise<StatsTicketsPage> {
  const answer = await apiClient.get<unknown>('/api/stats/tickets', {
    signal,
    query: { ...statsQueryParams(filters), limit, cursor: cursor ?? undefined },
  });
  return statsTicketsPageSchema.parse(answer);
}

export const statsPagedList = (filters: StatsFilters): PagedList<StatsTicketsPage, StatsTicketItem> => ({
  rows: (page) => page.items,
  withRows: (page, items) => ({ ...page, items }),
  fetchPage: (cursor, limit, signal) => getStatsTicketsPage(filters, cursor, limit, signal),
});

const statsTicketsPagesQuery = (filters: StatsFilters) =>
  keysetPagesQuery(statsKeys.ticketsFor(filters), statsPagedList(filters), STATS_PAGE_SIZE);

export function useStatsTicketsPages(filters: StatsFilters, enabled = true) {
  return useInfiniteQuery({ ...statsTicketsPagesQuery(filters), enabled, placeholderData: keepPreviousData });
}
