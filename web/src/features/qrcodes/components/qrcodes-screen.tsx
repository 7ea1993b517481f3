import { QR_CODE_BATCH_DEFAULT, QR_CODE_BATCH_MAX, QR_CODE_BATCH_MIN, canGenerateQrCodes, clampQrCodeBatchCount, type QrCode } from '@fsm/contracts';
import { useState } from 'react';
import { useCurrentUser } from '../../../app/guards';
import { Banner } from '../../../components/ui/banner';
import { PrintSheet } from '../../../components/ui/print-sheet';
import { TextField } from '../../../components/ui/text-field';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useExportQrCodes } from '../api/export-qr-codes';
import { useGenerateQrCodes } from '../api/generate-qr-codes';
import { useUnusedQrCodeCount } from '../api/get-unused-count';
import { useUnusedQrCodes } from '../api/get-unused-qr-codes';
import { QR_MESSAGES } from '../api/qrcode-messages';
import { QrLabelSheet, type QrLabel } from './qr-label-sheet';

/** The count field (§2, §5): '' reads as 0 while typing; anything else is clamped to 0–100. */
export function countFromInput(raw: string): number {
  return raw.trim() === '' ? QR_CODE_BATCH_MIN : clampQrCodeBatchCount(raw);
}

type SheetSource = 'batch' | 'unused';

/**
 * /qrcodes (management §2): generate a batch (1 to 100, default 5), export the
 * unused codes as CSV, see how many are left, and print them on A4 label
 * paper. The images come from our server, never from a public QR service.
 */
export function QrCodesScreen() {
  useDocumentTitle('QR Codes');
  const me = useCurrentUser();
  const toast = useToast();
  const [count, setCount] = useState(QR_CODE_BATCH_DEFAULT);
  const [batch, setBatch] = useState<QrCode[] | null>(null);
  const [source, setSource] = useState<SheetSource>('unused');
  const [failure, setFailure] = useState<string | null>(null);
  const unusedCount = useUnusedQrCodeCount();
  const unused = useUnusedQrCodes();
  const generate = useGenerateQrCodes();
  const exportCsv = useExportQrCodes();

  const onGenerate = () => {
    if (!canGenerateQrCodes(count)) return;
    setFailure(null);
    generate.mutate(count, {
      onSuccess: (codes) => {
        setBatch(codes);
        setSource('batch');
        toast.show(codes.length > 1 ? `${codes.length} QR codes générés.` : '1 QR code généré.', { tone: 'success' });
      },
      onError: (error) => setFailure(errorMessage(error, QR_MESSAGES.generateError)),
    });
  };

  const onExport = () => {
    setFailure(null);
    exportCsv.mutate(undefined, { onError: (error) => setFailure(errorMessage(error, QR_MESSAGES.exportError)) });
  };

  const codes = source === 'batch' && batch ? batch : (unused.data ?? []);
  const labels: QrLabel[] = codes.map((code) => ({ code }));
  const print = () => {
    if (typeof window.print === 'function') window.print();
  };

  return (
    <section className="stack" aria-labelledby="screen-title">
      <div className="page-header">
        <h1 id="screen-title">QR Codes</h1>
      </div>

      <div className="card qr-generator">
        <div className="qr-generator__row">
          <TextField
            label="Nombre de QR codes"
            type="number"
            min={QR_CODE_BATCH_MIN}
            max={QR_CODE_BATCH_MAX}
            step={1}
            inputMode="numeric"
            value={String(count)}
            onChange={(event) => setCount(countFromInput(event.target.value))}
            hint={`De 1 à ${QR_CODE_BATCH_MAX} par lot.`}
          />
          <button
            type="button"
            className="btn btn--primary"
            onClick={onGenerate}
            disabled={!canGenerateQrCodes(count) || generate.isPending}
            aria-busy={generate.isPending || undefined}
          >
            Générer
          </button>
          <button type="button" className="btn" onClick={onExport} disabled={exportCsv.isPending} aria-busy={exportCsv.isPending || undefined}>
            Exporter
          </button>
        </div>
        <p className="qr-generator__counter" role="status">
          QR codes non utilisés :{' '}
          <strong>{unusedCount.data === undefined ? (unusedCount.isError ? '—' : '…') : formatNumber(unusedCount.data)}</strong>
        </p>
      </div>
      {failure ? <Banner tone="error">{failure}</Banner> : null}

      <section className="stack" aria-labelledby="sheet-title">
        <div className="page-header page-header--sub">
          <h2 id="sheet-title">Planche d'étiquettes</h2>
          <div className="cluster">
            {batch ? (
              <div className="segmented" role="group" aria-label="Codes à imprimer">
                <button type="button" className="filter-chip" aria-pressed={source === 'batch'} onClick={() => setSource('batch')}>
                  Dernier lot ({batch.length})
                </button>
                <button type="button" className="filter-chip" aria-pressed={source === 'unused'} onClick={() => setSource('unused')}>
                  Tous les non utilisés
                </button>
              </div>
            ) : null}
            <button type="button" className="btn" onClick={print} disabled={labels.length === 0}>
              Imprimer la planche
            </button>
          </div>
        </div>
        <p className="muted">Format A4, 24 étiquettes de 70 × 37 mm (3 colonnes × 8 lignes, type Avery 3474).</p>
        {source === 'unused' && unused.isError ? <Banner tone="error">{errorMessage(unused.error, QR_MESSAGES.loadError)}</Banner> : null}
        {source === 'unused' && unused.isPending ? (
          <p className="muted" role="status">
            Chargement…
          </p>
        ) : labels.length === 0 ? (
          <p className="muted">Aucun QR code non utilisé. Générez un lot pour préparer une planche.</p>
        ) : (
          // Scrolls sideways on a phone: focusable and named so the keyboard can scroll it too.
          <div className="label-preview" tabIndex={0} role="region" aria-label="Aperçu de la planche">
            <QrLabelSheet labels={labels} agence={me.agence_nom} />
          </div>
        )}
      </section>

      {labels.length > 0 ? (
        <PrintSheet screenHidden label="Planche d'étiquettes à imprimer">
          <QrLabelSheet labels={labels} agence={me.agence_nom} decorative />
        </PrintSheet>
      ) : null}
    </section>
  );
}
