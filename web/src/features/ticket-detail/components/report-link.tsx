import type { ReactNode } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { useReportLink } from '../api/get-report-link';

const REPORT_LINK_UNAVAILABLE = 'Lien du rapport indisponible.';

/**
 * A link to a report PDF that opens in a new tab, with a download token bound
 * to that one file (refreshed before it expires). Plain text until the link
 * is there.
 */
export function ReportLink({ filename, className, download = false, children }: { filename: string; className?: string; download?: boolean; children: ReactNode }) {
  const link = useReportLink(filename);
  if (link.data) {
    return (
      <a className={className} href={link.data.downloadUrl} target="_blank" rel="noreferrer" download={download ? filename : undefined}>
        {children}
      </a>
    );
  }
  if (link.isError) {
    return (
      <span className={className}>
        {children} <span className="muted">({errorMessage(link.error, REPORT_LINK_UNAVAILABLE)})</span>
      </span>
    );
  }
  return (
    <span className={className} aria-busy="true">
      {children}
    </span>
  );
}
