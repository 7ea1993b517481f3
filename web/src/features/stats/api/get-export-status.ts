import { DOWNLOAD_LINK_TTL_SECONDS, exportStatusPath, exportStatusResponseSchema, type ExportStatusResponse } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { statsKeys } from './stats-keys';

/**
 * How often a running export is asked for its progress. The worker's progress
 * lives in a jobs table, not in a read model, so the live channel never
 * announces it: the screen asks.
 */
const EXPORT_POLL_MS = 1_000;
/** Once done, the download link (valid DOWNLOAD_LINK_TTL_SECONDS) is renewed at half its life. */
const EXPORT_LINK_REFRESH_MS = (DOWNLOAD_LINK_TTL_SECONDS * 1000) / 2;

/** GET /api/exports/{id} → `{ status, progress, rows, filename, downloadUrl, error }`. */
async function getExportStatus(exportId: string, signal?: AbortSignal): Promise<ExportStatusResponse> {
  const answer = await apiClient.get<unknown>(exportStatusPath(exportId), { signal });
  return exportStatusResponseSchema.parse(answer);
}

/** Until it is done or failed, then the link's renewal; a failed export is not asked again. */
function nextPoll(status: ExportStatusResponse | undefined): number | false {
  if (!status || status.status === 'pending' || status.status === 'running') return EXPORT_POLL_MS;
  return status.status === 'done' ? EXPORT_LINK_REFRESH_MS : false;
}

const exportStatusQuery = (exportId: string) =>
  queryOptions({
    queryKey: statsKeys.export(exportId),
    queryFn: ({ signal }) => getExportStatus(exportId, signal),
    refetchInterval: (query) => (query.state.error ? false : nextPoll(query.state.data)),
    // Keeps polling while the user looks at another tab: the export goes on without them.
    refetchIntervalInBackground: true,
  });

export function useExportStatus(exportId: string) {
  return useQuery(exportStatusQuery(exportId));
}
