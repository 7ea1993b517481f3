import { existsSync } from 'node:fs';

/*
 * Debian's Chromium as the benchmark's browser scenarios start it: the e2e
 * suite's flags (e2e/support/browser.ts, which imports vitest and so cannot
 * be loaded here).
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Why a browser scenario cannot run here, or null when it can. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `Chromium introuvable à ${CHROMIUM_PATH} (apt-get install chromium, ou CHROMIUM_PATH=...)`;
}
