import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

export interface AssignQrCodeInput {
  qrCodeId: string;
  installationId: string;
}

/** POST /api/qrcodes/{id}/assign `{ installation_id }` (ours: the installation's QR modal needs it). */
export async function assignQrCode({ qrCodeId, installationId }: AssignQrCodeInput): Promise<void> {
  await apiClient.post(`/api/qrcodes/${encodeURIComponent(qrCodeId)}/assign`, { installation_id: installationId });
}

export function useAssignQrCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: assignQrCode,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: qrCodeKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: qrCodeKeys.unusedCount() });
    },
  });
}
