import { TICKET_MESSAGES, reportGenerationErrorMessage } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';

export interface ReportRequest {
  ticketId: string;
  isReintervention: boolean;
  signature: { client: string | null; technicien: string | null };
  demandeur: { prenom: string; nom: string; email: string };
  technicien: { nom: string; prenom: string };
}

export interface GeneratedReport {
  downloadUrl: string;
  filename: string;
}

/** A report failure, with the text spec §8 asks for. */
export class ReportError extends Error {
  constructor(
    message: string,
    /** Asking again may succeed (issue 32): the generation failed (502) or is still running (503). */
    readonly canRetry = false,
  ) {
    super(message);
    this.name = 'ReportError';
  }
}

/** The server's own sentence when it gave one (« La génération du rapport a échoué : … »), else the whole body. */
function failureText(body: unknown): string {
  if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') return (body as { error: string }).error;
  return bodyText(body);
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * POST /api/reports/{ticketId}.pdf?isReintervention={bool} → `{ success,
 * downloadUrl, filename }`. Failures read 'Erreur génération PDF: {status} -
 * {body}' (the body's `error` sentence when it has one: a failed generation
 * says why, issue 32); an answer without the file reads 'Réponse invalide du serveur'.
 * Calling it again after a failed generation asks the workers for it again.
 */
export async function generateReport({ ticketId, isReintervention, ...payload }: ReportRequest): Promise<GeneratedReport> {
  return postReport(ticketId, isReintervention, payload);
}

async function postReport(ticketId: string, isReintervention: boolean, payload: object): Promise<GeneratedReport> {
  let answer: unknown;
  try {
    answer = await apiClient.post<unknown>(`/api/reports/${encodeURIComponent(ticketId)}.pdf`, payload, {
      query: { isReintervention: String(isReintervention) },
    });
  } catch (error) {
    if (error instanceof ApiError) throw new ReportError(reportGenerationErrorMessage(error.status, failureText(error.body)), error.status === 502 || error.status === 503);
    throw error;
  }
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const filename = typeof body.filename === 'string' ? body.filename : '';
  // The link must be the server's (its token is bound to the file): without it, the answer is unusable.
  const downloadUrl = typeof body.downloadUrl === 'string' ? body.downloadUrl : '';
  if (body.success === false || !filename || !downloadUrl) throw new ReportError(TICKET_MESSAGES.reportInvalidResponse);
  return { downloadUrl, filename };
}

/**
 * « Relancer » on the ticket detail (issue 32): asks again for a report whose
 * generation failed (a new job for the workers). The body names nobody: the
 * report prints what the log holds. The reports are refetched either way.
 */
export function useRetryReport(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isReintervention: boolean) => postReport(ticketId, isReintervention, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ticketKeys.reports(ticketId) }),
  });
}
