import { TICKET_MESSAGES, reportGenerationErrorMessage } from '@fsm/contracts';
import { ApiError, apiClient } from '../../../lib/api-client';

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
  constructor(message: string) {
    super(message);
    this.name = 'ReportError';
  }
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * POST /api/reports/{ticketId}.pdf?isReintervention={bool} → `{ success,
 * downloadUrl, filename }`. Failures read 'Erreur génération PDF: {status} -
 * {body}'; an answer without the file reads 'Réponse invalide du serveur'.
 */
export async function generateReport({ ticketId, isReintervention, ...payload }: ReportRequest): Promise<GeneratedReport> {
  let answer: unknown;
  try {
    answer = await apiClient.post<unknown>(`/api/reports/${encodeURIComponent(ticketId)}.pdf`, payload, {
      query: { isReintervention: String(isReintervention) },
    });
  } catch (error) {
    if (error instanceof ApiError) throw new ReportError(reportGenerationErrorMessage(error.status, bodyText(error.body)));
    throw error;
  }
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const filename = typeof body.filename === 'string' ? body.filename : '';
  // The link must be the server's (its token is bound to the file): without it, the answer is unusable.
  const downloadUrl = typeof body.downloadUrl === 'string' ? body.downloadUrl : '';
  if (body.success === false || !filename || !downloadUrl) throw new ReportError(TICKET_MESSAGES.reportInvalidResponse);
  return { downloadUrl, filename };
}
