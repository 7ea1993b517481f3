import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

interface AssignQrCodeInput {
  qrCodeId: string;
  installationId: string;
  /** The code's version as listed: a code that changed since is refused (409). */
  version?: number | undefined;
}

/** POST /api/qrcodes/{id}/assign `{ installation_id, version }` (ours: the installation's QR modal needs it). */
async function assignQrCode({ qrCodeId, installationId, version }: AssignQrCodeInput): Promise<void> {
  await apiClient.post(`/api/qrcodes/${encodeURIComponent(qrCodeId)}/assign`, { installation_id: installationId, version });
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
