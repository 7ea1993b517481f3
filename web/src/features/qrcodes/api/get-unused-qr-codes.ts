import { qrCodesByInstallationResponseSchema, type QrCode } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

/** GET /api/qrcodes/unused → `{ items }`: one's agency's codes not yet on an installation. */
async function getUnusedQrCodes(signal?: AbortSignal): Promise<QrCode[]> {
  return qrCodesByInstallationResponseSchema.parse(await apiClient.get<unknown>('/api/qrcodes/unused', { signal })).items;
}

const unusedQrCodesQuery = () => queryOptions({ queryKey: qrCodeKeys.unused(), queryFn: ({ signal }) => getUnusedQrCodes(signal) });

export function useUnusedQrCodes(enabled = true) {
  return useQuery({ ...unusedQrCodesQuery(), enabled });
}
