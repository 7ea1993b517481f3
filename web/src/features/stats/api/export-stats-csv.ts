import { statsCsvFileName } from '@fsm/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { saveCsv } from '../../../lib/download';
import { statsQueryParams } from './get-stats-tickets';
import type { StatsFilters } from './stats-keys';

/**
 * GET /api/stats/tickets.csv with the applied filters, fetched with the token
 * (a plain link could not send it) and saved as stats_tickets_<date>.csv:
 * ';', quotes escaped, Oui / Non / N/A, dates dd/mm/yyyy hh:mm (§9).
 */
async function exportStatsCsv(filters: StatsFilters): Promise<void> {
  const csv = await apiClient.get<unknown>('/api/stats/tickets.csv', { query: statsQueryParams(filters) });
  saveCsv(typeof csv === 'string' ? csv : '', statsCsvFileName(new Date()));
}

export function useExportStatsCsv() {
  return useMutation({ mutationFn: exportStatsCsv });
}
