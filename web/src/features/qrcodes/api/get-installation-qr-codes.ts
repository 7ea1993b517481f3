import { qrCodesByInstallationResponseSchema, type QrCode } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

/** GET /api/qrcodes/by-installation/{id} → `{ items }`. */
async function getInstallationQrCodes(installationId: string, signal?: AbortSignal): Promise<QrCode[]> {
  const answer = await apiClient.get<unknown>(`/api/qrcodes/by-installation/${encodeURIComponent(installationId)}`, { signal });
  return qrCodesByInstallationResponseSchema.parse(answer).items;
}

const installationQrCodesQuery = (installationId: string) =>
  queryOptions({ queryKey: qrCodeKeys.byInstallation(installationId), queryFn: ({ signal }) => getInstallationQrCodes(installationId, signal) });

export function useInstallationQrCodes(installationId: string) {
  return useQuery(installationQrCodesQuery(installationId));
}
