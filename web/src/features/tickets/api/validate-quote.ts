import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiClient } from '../../../lib/api-client';
import { refreshAfterTicketCommand } from './refresh-ticket-pages';

interface ValidateQuoteInput {
  ticketId: string;
  numero_devis: string;
  /** `YYYY-MM-DD`. */
  date_enregistrement_devis: string;
}

/** PATCH /api/tickets/{id}/update `{ numero_devis, date_enregistrement_devis }` (spec §7). */
async function validateQuote({ ticketId, ...body }: ValidateQuoteInput): Promise<void> {
  const answer = await apiClient.patch<unknown>(`/api/tickets/${encodeURIComponent(ticketId)}/update`, {
    numero_devis: body.numero_devis.trim(),
    date_enregistrement_devis: body.date_enregistrement_devis || undefined,
  });
  if (typeof answer === 'object' && answer !== null && (answer as { success?: unknown }).success === false) {
    const error = (answer as { error?: unknown }).error;
    throw new ApiError(200, typeof error === 'string' && error ? error : undefined, answer);
  }
}

/** A success reloads the lists (spec §7), the summary and that ticket. */
export function useValidateQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: validateQuote,
    onSuccess: (_data, input) => refreshAfterTicketCommand(queryClient, [input.ticketId]),
  });
}
