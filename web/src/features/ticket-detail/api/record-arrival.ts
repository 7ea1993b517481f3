import type { Ticket } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { refreshAfterTicketCommand } from '../../tickets/api/refresh-ticket-pages';
import { parseTicket } from '../../tickets/api/ticket-view';

/**
 * POST /api/tickets/{id}/sur-site (issue 32): « Je suis sur site » records the
 * arrival of the visit in progress by the server's clock; the wizard then
 * takes it as its arrival. Tapped twice, the first arrival stays.
 */
async function recordArrival(input: { ticketId: string }): Promise<Ticket | null> {
  const answer = await apiClient.post<unknown>(`/api/tickets/${encodeURIComponent(input.ticketId)}/sur-site`);
  return typeof answer === 'object' && answer !== null && 'id' in answer ? parseTicket(answer) : null;
}

export function useRecordArrival() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordArrival,
    onSuccess: (ticket, input) => refreshAfterTicketCommand(queryClient, [input.ticketId], ticket),
  });
}
