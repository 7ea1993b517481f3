import { ticketReportsAnswerSchema, type TicketReport } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';

/** GET /api/tickets/{id}/reports (not in the spec): each visit's report and who it was e-mailed to. */
async function getTicketReports(ticketId: string, signal?: AbortSignal): Promise<TicketReport[]> {
  const answer = await apiClient.get<unknown>(`/api/tickets/${encodeURIComponent(ticketId)}/reports`, { signal });
  return ticketReportsAnswerSchema.parse(answer).reports;
}

const ticketReportsQuery = (ticketId: string) =>
  queryOptions({ queryKey: ticketKeys.reports(ticketId), queryFn: ({ signal }) => getTicketReports(ticketId, signal) });

/** Only a ticket with a finished visit has reports: an open one does not ask. */
export function useTicketReports(ticketId: string, enabled: boolean) {
  return useQuery({ ...ticketReportsQuery(ticketId), enabled });
}
