import type { TicketVisitBody, Ticket } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { refreshAfterTicketCommand } from '../../tickets/api/refresh-ticket-pages';
import { parseTicket } from '../../tickets/api/ticket-view';

export type VisitMode = 'close' | 'reintervention';

/**
 * PATCH /api/tickets/{id}/close or POST /api/tickets/{id}/intervention, same
 * fields (spec §7). Both answer the re-read ticket.
 */
async function recordVisit(input: { ticketId: string; mode: VisitMode; body: TicketVisitBody }): Promise<Ticket | null> {
  const path = `/api/tickets/${encodeURIComponent(input.ticketId)}`;
  const answer =
    input.mode === 'close'
      ? await apiClient.patch<unknown>(`${path}/close`, input.body)
      : await apiClient.post<unknown>(`${path}/intervention`, input.body);
  return typeof answer === 'object' && answer !== null && 'id' in answer ? parseTicket(answer) : null;
}

export function useRecordVisit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordVisit,
    onSuccess: (ticket, input) => refreshAfterTicketCommand(queryClient, [input.ticketId], ticket),
  });
}
