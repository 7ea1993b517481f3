import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { qrCodeKeys } from './qrcode-keys';

/**
 * GET /api/qrcodes/{id}/image.svg, rendered by our server (no third-party
 * service sees the keys). It needs the bearer token, which an <img src>
 * cannot send, so the SVG is fetched here and shown through an object URL.
 */
async function getQrCodeImage(id: string, signal?: AbortSignal): Promise<Blob> {
  const svg = await apiClient.get<unknown>(`/api/qrcodes/${encodeURIComponent(id)}/image.svg`, { signal });
  if (typeof svg !== 'string' || !svg.includes('<svg')) throw new Error('Image de QR code illisible');
  return new Blob([svg], { type: 'image/svg+xml' });
}

const qrCodeImageQuery = (id: string) =>
  // A code's URL never changes, nor does its image: 'static' keeps it out of
  // invalidations too, so a live resync refetches the lists, not every image
  // on the sheet (issue 18, item 7: 1,240 image requests after one batch).
  queryOptions({ queryKey: qrCodeKeys.image(id), queryFn: ({ signal }) => getQrCodeImage(id, signal), staleTime: 'static' });

export function useQrCodeImage(id: string) {
  return useQuery(qrCodeImageQuery(id));
}
