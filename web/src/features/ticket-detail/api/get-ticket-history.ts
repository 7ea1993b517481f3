import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';

/** One event of the ticket's stream, as the auditors' route gives it. */
export interface TicketHistoryEvent {
  revision: number;
  type: string;
  recordedAt: string | null;
  userName: string | null;
  data: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function str(...values: unknown[]): string | null {
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') return v;
  return null;
}

/**
 * GET /api/tickets/{id}/history answers `{ ticket_id, num_chrono, events: [...] }`
 * (or the bare array); fields in snake_case (`recorded_at`, `user_name`) or
 * camelCase (`recordedAt`, `userName`).
 */
function readHistory(answer: unknown): TicketHistoryEvent[] {
  const list = Array.isArray(answer)
    ? answer
    : typeof answer === 'object' && answer !== null && Array.isArray((answer as Json).events)
      ? ((answer as Json).events as unknown[])
      : [];
  return list
    .filter((e): e is Json => typeof e === 'object' && e !== null)
    .map((e, index) => ({
      revision: typeof e.revision === 'number' ? e.revision : index,
      type: str(e.type) ?? 'Inconnu',
      recordedAt: str(e.recorded_at, e.recordedAt),
      userName: str(e.user_name, e.userName),
      data: typeof e.data === 'object' && e.data !== null ? (e.data as Json) : {},
    }))
    .sort((a, b) => a.revision - b.revision);
}

async function getTicketHistory(ticketId: string, signal?: AbortSignal): Promise<TicketHistoryEvent[]> {
  return readHistory(await apiClient.get<unknown>(`/api/tickets/${encodeURIComponent(ticketId)}/history`, { signal }));
}

const ticketHistoryQuery = (ticketId: string) =>
  queryOptions({ queryKey: ticketKeys.history(ticketId), queryFn: ({ signal }) => getTicketHistory(ticketId, signal) });

export function useTicketHistory(ticketId: string, enabled: boolean) {
  return useQuery({ ...ticketHistoryQuery(ticketId), enabled });
}
