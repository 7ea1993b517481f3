import { TICKET_MESSAGES } from '@fsm/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

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
}

/** POST /api/reports/send-email (spec §7). */
export async function sendReportEmail(request: ReportEmailRequest): Promise<void> {
  const answer = await apiClient.post<unknown>('/api/reports/send-email', request);
  if (typeof answer === 'object' && answer !== null && (answer as { success?: unknown }).success === false) {
    throw new Error(TICKET_MESSAGES.reportEmailError);
  }
}

export function useSendReportEmail() {
  return useMutation({ mutationFn: sendReportEmail });
}
