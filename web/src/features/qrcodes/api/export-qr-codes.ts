import { qrCodesCsvFileName } from '@fsm/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { saveCsv } from '../../../lib/download';
import { parisDateInput } from '../../../lib/format';

/** POST /api/qrcodes/export → the CSV of one's agency's unused codes (ID;Clé;URL), saved as qrcodes_<date>.csv. */
async function exportQrCodes(): Promise<void> {
  const csv = await apiClient.post<unknown>('/api/qrcodes/export');
  saveCsv(typeof csv === 'string' ? csv : '', qrCodesCsvFileName(parisDateInput()));
}

export function useExportQrCodes() {
  return useMutation({ mutationFn: exportQrCodes });
}
