import { NUM_CHRONO_PATTERN, type Ticket } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys, type ClosedMatchesSearch } from './ticket-keys';
import { parseTicketList } from './ticket-view';

/** How many closed matches the open board asks for: it names one, and counts up to this many. */
const CLOSED_MATCHES_LIMIT = 20;

export interface ClosedMatches {
  tickets: Ticket[];
  total: number;
  search: ClosedMatchesSearch;
}

/**
 * What to ask the closed search for a text typed on the open board. A whole
 * chrono number (`LYO-2026-00042`) carries its year: that whole year is
 * searched, since the ticket may have been closed long ago. Any other text is
 * searched in the closed search's default range (the last 30 days), which is
 * what its « Voir » link then shows.
 */
function closedMatchesSearch(text: string): ClosedMatchesSearch {
  const q = text.trim();
  const chrono = NUM_CHRONO_PATTERN.exec(q.toUpperCase());
  const year = chrono?.[2];
  return year === undefined ? { q } : { q, date_debut: `${year}-01-01`, date_fin: `${year}-12-31` };
}

/** GET /api/tickets/clos?q=…&limit: the closed tickets matching the text (issue 32, item 9). */
async function findClosedMatches(search: ClosedMatchesSearch, signal?: AbortSignal): Promise<ClosedMatches> {
  const answer = await apiClient.get<unknown>('/api/tickets/clos', {
    signal,
    query: { q: search.q, date_debut: search.date_debut, date_fin: search.date_fin, limit: CLOSED_MATCHES_LIMIT },
  });
  const tickets = parseTicketList(answer);
  const total = typeof answer === 'object' && answer !== null && 'total' in answer && typeof answer.total === 'number' ? answer.total : tickets.length;
  return { tickets, total, search };
}

const closedMatchesQuery = (search: ClosedMatchesSearch) =>
  queryOptions({
    queryKey: ticketKeys.closedMatches(search),
    queryFn: ({ signal }) => findClosedMatches(search, signal),
    staleTime: 30_000,
  });

/** The closed tickets a text matches; `enabled` only once nothing open matched. */
export function useClosedMatches(text: string, enabled: boolean) {
  return useQuery({ ...closedMatchesQuery(closedMatchesSearch(text)), enabled: enabled && text.trim() !== '' });
}
