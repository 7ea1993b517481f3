import type { QrCode } from '@fsm/contracts';
import { useEffect, useState } from 'react';
import { useQrCodeImage } from '../api/get-qr-code-image';
import { QR_MESSAGES } from '../api/qrcode-messages';

/** An object URL for a blob, revoked when the blob changes or the component goes. */
function useBlobUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

/**
 * A code's QR image as our server renders it. `decorative` for copies whose
 * meaning is already given by text next to them (the print-only sheet).
 */
export function QrCodeImage({ code, className = 'qr-image', decorative = false }: { code: QrCode; className?: string; decorative?: boolean }) {
  const image = useQrCodeImage(code.id);
  const url = useBlobUrl(image.data);
  if (image.isError) {
    return (
      <span className={`${className} qr-image--missing`} role={decorative ? undefined : 'img'} aria-label={decorative ? undefined : QR_MESSAGES.imageError}>
        {QR_MESSAGES.imageError}
      </span>
    );
  }
  if (!url) return <span className={`${className} skeleton`} aria-hidden="true" />;
  return <img className={className} src={url} alt={decorative ? '' : `QR code ${code.qr_key}`} />;
}
