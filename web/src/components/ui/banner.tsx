import type { ReactNode } from 'react';

export type BannerTone = 'info' | 'success' | 'warning' | 'error';

/** An inline message. Errors are announced at once (alert), others politely (status). */
export function Banner({ tone = 'info', children }: { tone?: BannerTone; children: ReactNode }) {
  return (
    <div className={`banner banner--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
