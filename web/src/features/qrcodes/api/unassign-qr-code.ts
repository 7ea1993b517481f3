import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

interface UnassignQrCodeInput {
  qrCodeId: string;
  /** The code's version as listed (If-Match): a code moved since to another installation is not taken off it. */
  version?: number | undefined;
}

/** DELETE /api/qrcodes/{id}/assign: the code goes back to the agency's unused pool. */
async function unassignQrCode({ qrCodeId, version }: UnassignQrCodeInput): Promise<void> {
  await apiClient.delete(`/api/qrcodes/${encodeURIComponent(qrCodeId)}/assign`, { ifMatch: version });
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
