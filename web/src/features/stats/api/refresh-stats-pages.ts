import type { QueryClient } from '@tanstack/react-query';
import { refreshLoadedPages, refreshPagedQueries } from '../../../lib/infinite-pages';
import { STATS_PAGE_SIZE, statsPagedList } from './get-stats-tickets';
import { statsKeys, type StatsFilters } from './stats-keys';

/**
 * After a change to these tickets, refreshes in each statistics table on
 * screen the first page (summary and weekly trend of the whole window) and the
 * loaded pages listing one of them, instead of every loaded page.
 */
export function refreshStatsPages(queryClient: QueryClient, ids: readonly string[]): Promise<void> {
  const changed = new Set(ids);
  return refreshPagedQueries(queryClient, statsKeys.tickets(), (queryKey) =>
    refreshLoadedPages(queryClient, queryKey, changed, statsPagedList(queryKey[2] as StatsFilters), STATS_PAGE_SIZE),
  );
}
