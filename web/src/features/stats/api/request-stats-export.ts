import { exportStatusResponseSchema, type ExportStatusResponse } from '@fsm/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { statsQueryParams } from './get-stats-tickets';
import type { StatsFilters } from './stats-keys';

/**
 * POST /api/exports `{ kind: 'stats-tickets', filters }` → 202 and the
 * export's status (`pending`): the workers write the same file as
 * GET /api/stats/tickets.csv for these filters (docs/exports.md).
 */
async function requestStatsExport(filters: StatsFilters): Promise<ExportStatusResponse> {
  const answer = await apiClient.post<unknown>('/api/exports', { kind: 'stats-tickets', filters: statsQueryParams(filters) });
  return exportStatusResponseSchema.parse(answer);
}

export function useRequestStatsExport() {
  return useMutation({ mutationFn: requestStatsExport });
}
