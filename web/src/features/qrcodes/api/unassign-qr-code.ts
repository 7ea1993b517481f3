import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

/** DELETE /api/qrcodes/{id}/assign: the code goes back to the agency's unused pool. */
export async function unassignQrCode(qrCodeId: string): Promise<void> {
  await apiClient.delete(`/api/qrcodes/${encodeURIComponent(qrCodeId)}/assign`);
}

export function useUnassignQrCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unassignQrCode,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: qrCodeKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: qrCodeKeys.unusedCount() });
    },
  });
}
