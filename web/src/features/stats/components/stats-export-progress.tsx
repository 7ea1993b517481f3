import { EXPORT_MESSAGES } from '@fsm/contracts';
import { Banner } from '../../../components/ui/banner';
import { errorMessage } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/format';
import { useExportStatus } from '../api/get-export-status';

const EXPORT_STATUS_ERROR = "Impossible de suivre l'export.";

function rowsText(rows: number): string {
  return `${formatNumber(rows)} ligne${rows > 1 ? 's' : ''}`;
}

/**
 * A statistics CSV the workers are writing (docs/exports.md): its progress
 * while it runs, then the link that downloads it (a token bound to this one
 * file, renewed before it expires), or why it failed.
 */
export function StatsExportProgress({ exportId }: { exportId: string }) {
  const status = useExportStatus(exportId);
  if (status.isError) return <Banner tone="error">{errorMessage(status.error, EXPORT_STATUS_ERROR)}</Banner>;
  const current = status.data;
  if (current?.status === 'failed') return <Banner tone="error">{current.error ?? EXPORT_MESSAGES.failed}</Banner>;
  if (current?.status === 'done' && current.downloadUrl) {
    return (
      <Banner tone="success">
        {`Export prêt (${rowsText(current.rows)})\u202F: `}
        <a href={current.downloadUrl} download={current.filename}>
          Télécharger {current.filename}
        </a>
      </Banner>
    );
  }
  const progress = current?.progress ?? 0;
  const text = current?.status === 'running' ? `Export en cours\u202F: ${progress}\u202F% (${rowsText(current.rows)})` : 'Export en attente…';
  return (
    <div className="card stats-export" aria-busy="true">
      <progress className="stats-export__bar" max={100} value={progress} aria-label="Progression de l'export CSV" aria-valuetext={text} />
      <p className="muted" role="status">
        {text}
      </p>
    </div>
  );
}
