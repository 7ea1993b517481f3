import { statsCsvFileName } from '@fsm/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { saveCsv } from '../../../lib/download';
import { statsQueryParams } from './get-stats-tickets';
import type { StatsFilters } from './stats-keys';

/**
 * The most tickets 'Exporter CSV' downloads at once, in the page (issue 28,
 * item 2; docs/exports.md, "The statistics screen"). Above it the workers make
 * the file (`request-stats-export.ts`): a year of every agency's tickets
 * (85 MB) took 8.6 s in one request, held whole in the tab, with nothing on
 * screen meanwhile; 5,000 rows are about 1 MB (some 200 bytes a row).
 */
export const STATS_CSV_INLINE_MAX_ROWS = 5_000;

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
