import { DOWNLOAD_LINK_TTL_SECONDS, reportPdfResponseSchema, TICKET_MESSAGES } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { ticketKeys } from '../../tickets/api/ticket-keys';
import { ReportError, type GeneratedReport } from './generate-report';

/** Half the link's life: the link on screen is always good for a few more minutes. */
const REPORT_LINK_REFRESH_MS = (DOWNLOAD_LINK_TTL_SECONDS * 1000) / 2;

/**
 * GET /api/reports/download/{filename}/link → `{ downloadUrl, filename }`: a
 * link bound to this one file, valid a few minutes. The screens never build a
 * link with the session token (it would end up in history and logs).
 */
async function getReportLink(filename: string, signal?: AbortSignal): Promise<GeneratedReport> {
  const answer = await apiClient.get<unknown>(`/api/reports/download/${encodeURIComponent(filename)}/link`, { signal });
  const parsed = reportPdfResponseSchema.safeParse(answer);
  if (!parsed.success) throw new ReportError(TICKET_MESSAGES.reportInvalidResponse);
  return { downloadUrl: parsed.data.downloadUrl, filename: parsed.data.filename };
}

export const reportLinkQuery = (filename: string) =>
  queryOptions({
    queryKey: ticketKeys.reportLink(filename),
    queryFn: ({ signal }) => getReportLink(filename, signal),
    staleTime: REPORT_LINK_REFRESH_MS,
    refetchInterval: REPORT_LINK_REFRESH_MS,
  });

export function useReportLink(filename: string) {
  return useQuery(reportLinkQuery(filename));
}
