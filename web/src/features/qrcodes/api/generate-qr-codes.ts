import { qrCodeBatchResponseSchema, type QrCode } from '@fsm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

/** POST /api/qrcodes/batch `{ count }` → `{ codes }`, unassigned, in one's agency. */
async function generateQrCodes(count: number): Promise<QrCode[]> {
  return qrCodeBatchResponseSchema.parse(await apiClient.post<unknown>('/api/qrcodes/batch', { count })).codes;
}

export function useGenerateQrCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateQrCodes,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: qrCodeKeys.unusedCount() });
      void queryClient.invalidateQueries({ queryKey: qrCodeKeys.unused() });
    },
  });
}
