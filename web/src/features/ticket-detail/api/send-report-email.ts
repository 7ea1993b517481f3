import { sendReportEmailResponseSchema, TICKET_MESSAGES, type SendReportEmailResponse } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';

export interface ReportRecipient {
  email: string;
  nom: string;
  prenom: string;
}

export interface ReportEmailRequest {
  recipients: ReportRecipient[];
  ticketNumber: string;
  ticketInfo: { site: string; installation: string };
  downloadUrl: string;
  /** Issue 32: addresses the user confirmed to send again, with the request count the server gave (`alreadySent`). */
  resend?: { email: string; knownRequests: number }[];
}

/**
 * POST /api/reports/send-email (spec §7). The answer says how many recipients
 * were queued and how many had it already (never sent twice); null from a
 * server that answers only `{ success: true }`.
 */
export async function sendReportEmail(request: ReportEmailRequest): Promise<SendReportEmailResponse | null> {
  const answer = await apiClient.post<unknown>('/api/reports/send-email', request);
  if (typeof answer === 'object' && answer !== null && (answer as { success?: unknown }).success === false) {
    throw new Error(TICKET_MESSAGES.reportEmailError);
  }
  const parsed = sendReportEmailResponseSchema.safeParse(answer);
  return parsed.success ? parsed.data : null;
}

/** Sends a ticket's report again (ticket detail); its e-mails' status is refetched at once, then by live updates. */
export function useSendReportEmail(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendReportEmail,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.reports(ticketId) }),
  });
}
