import type { QrCode } from '@fsm/contracts';
import { QR_MESSAGES } from '../api/qrcode-messages';
import { QrCodeImage } from './qr-code-image';

/** What a label says beside its code; the installation, site and client once it is assigned. */
export interface QrLabel {
  code: QrCode;
  installation?: string | null;
  site?: string | null;
  client?: string | null;
}

/** A4 label paper of 3 × 8 labels of 70 × 37 mm (type Avery 3474): one sheet per 24 codes. */
const LABELS_PER_SHEET = 24;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function Label({ label, agence, decorative }: { label: QrLabel; agence: string | null; decorative: boolean }) {
  return (
    <li className="qr-label">
      <QrCodeImage code={label.code} className="qr-label__image" decorative={decorative} />
      <div className="qr-label__text">
        {agence ? <p className="qr-label__agence">{agence}</p> : null}
        {label.installation ? <p className="qr-label__installation">{label.installation}</p> : null}
        {label.site || label.client ? <p className="qr-label__place">{[label.site, label.client].filter(Boolean).join(' · ')}</p> : null}
        <p className="qr-label__scan">{QR_MESSAGES.scanLine}</p>
        <p className="qr-label__key">{label.code.qr_key.slice(0, 8)}</p>
      </div>
    </li>
  );
}

/**
 * The labels, laid out sheet by sheet. On screen it is a preview; inside a
 * PrintSheet the print CSS gives each sheet an A4 page with no margin.
 */
export function QrLabelSheet({ labels, agence, decorative = false }: { labels: readonly QrLabel[]; agence: string | null; decorative?: boolean }) {
  return (
    <div className="label-sheets">
      {chunk(labels, LABELS_PER_SHEET).map((page, index) => (
        <ul key={index} className="label-sheet" aria-label={decorative ? undefined : `Planche ${index + 1}`}>
          {page.map((label) => (
            <Label key={label.code.id} label={label} agence={agence} decorative={decorative} />
          ))}
        </ul>
      ))}
    </div>
  );
}
