import { qrCodeUnusedCountResponseSchema } from '@fsm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

/** GET /api/qrcodes/unused-count → `{ unused }` for one's agency. */
async function getUnusedQrCodeCount(signal?: AbortSignal): Promise<number> {
  return qrCodeUnusedCountResponseSchema.parse(await apiClient.get<unknown>('/api/qrcodes/unused-count', { signal })).unused;
}

const unusedQrCodeCountQuery = () => queryOptions({ queryKey: qrCodeKeys.unusedCount(), queryFn: ({ signal }) => getUnusedQrCodeCount(signal) });

export function useUnusedQrCodeCount() {
  return useQuery(unusedQrCodeCountQuery());
}
