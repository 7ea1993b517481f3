import type { Ticket } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { refreshAfterTicketCommand } from '../../tickets/api/refresh-ticket-pages';
import { parseTicket } from '../../tickets/api/ticket-view';

/** PATCH /api/tickets/{id} `{ statut: 'en_cours', technicien_id }` (spec §4 "Take in charge"). */
async function takeInCharge(input: { ticketId: string; technicienId: string }): Promise<Ticket | null> {
  const answer = await apiClient.patch<unknown>(`/api/tickets/${encodeURIComponent(input.ticketId)}`, {
    statut: 'en_cours',
    technicien_id: input.technicienId,
  });
  return typeof answer === 'object' && answer !== null && 'id' in answer ? parseTicket(answer) : null;
}

export function useTakeInCharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeInCharge,
    onSuccess: (ticket, input) => refreshAfterTicketCommand(queryClient, [input.ticketId], ticket),
  });
}
