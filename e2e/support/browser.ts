import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFailed, onTestFinished } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { DEMO_PASSWORD, REPO_ROOT } from './stack.js';

/** Debian's chromium; the e2e suite never downloads a browser (see ../shared/PITFALLS.md). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why a suite skips: without a Chromium binary these journeys cannot run at all,
 * and failing `npm test` on machines without one would hide the other projects'
 * results. The reason is printed once so a skipped run is never mistaken for green.
 */
export const skipReason: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `e2e ignorés : Chromium introuvable à ${CHROMIUM_PATH} (apt-get install chromium, ou CHROMIUM_PATH=...)`;
if (skipReason) console.warn(skipReason);

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };

export async function newContext(browser: Browser, baseUrl: string, options: BrowserContextOptions = DESKTOP): Promise<BrowserContext> {
  // Reduced motion (the product honours it, base.css): axe measuring contrast
  // while a toast fades in sees a half-transparent green and reports it.
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'fr-FR', timezoneId: 'Europe/Paris', reducedMotion: 'reduce', ...options });
  context.setDefaultTimeout(15_000);
  await refuseThirdPartyRequests(context, baseUrl);
  return context;
}

/**
 * Nothing the product loads may come from a host other than its own (issue
 * 18, item 6: a library fetched its worker from a public CDN). Every such
 * request is aborted, so the journey sees what a user behind a strict
 * firewall sees, and the test that opened the context fails with the list.
 * Outside a test (a `beforeAll`), the list is still kept on the context.
 */
export const foreignRequests = new WeakMap<BrowserContext, string[]>();
async function refuseThirdPartyRequests(context: BrowserContext, baseUrl: string): Promise<void> {
  const appHost = new URL(baseUrl).host;
  const seen: string[] = [];
  foreignRequests.set(context, seen);
  await context.route(
    (url) => /^(https?|wss?):$/.test(url.protocol) && url.host !== appHost,
    (route) => {
      seen.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  try {
    onTestFinished(() => {
      if (seen.length > 0) throw new Error(`requête(s) vers un autre hôte que l’application (${appHost}) :\n${[...new Set(seen)].join('\n')}`);
    });
  } catch {
    // Not inside a test: the caller reads foreignRequests itself.
  }
}

/** Logs in through the API and seeds localStorage as the login screen would (scripts/screenshots.mjs). */
export async function signedInContext(browser: Browser, baseUrl: string, email: string, options: BrowserContextOptions = DESKTOP, password = DEMO_PASSWORD): Promise<BrowserContext> {
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, motdepasse: password }) });
  if (!res.ok) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const { token, user } = (await res.json()) as { token: string; user: unknown };
  const context = await newContext(browser, baseUrl, options);
  await context.addInitScript(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('user', u);
    },
    [token, JSON.stringify(user)] as const,
  );
  return context;
}

/** Logs in through the login screen, as a user does. */
export async function logInWithForm(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Collects console messages and page errors, dumped with a screenshot when a journey fails. */
export function recordConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => lines.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => lines.push(`[pageerror] ${e.message}`));
  return lines;
}

export async function saveArtifacts(name: string, pages: Array<{ page: Page; console: string[] }>): Promise<void> {
  const dir = join(REPO_ROOT, 'e2e', 'artifacts');
  mkdirSync(dir, { recursive: true });
  let i = 0;
  for (const { page, console } of pages) {
    const base = join(dir, `${name}-${i++}`);
    await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
    writeFileSync(`${base}.console.txt`, `${page.url()}\n${console.join('\n')}\n`);
  }
}

/**
 * Also saves the artifacts when the test fails without reaching its `catch`:
 * a vitest timeout abandons the test while its pages are still open (the
 * `catch` + saveArtifacts pattern covers every other failure, before
 * `finally` closes the pages). Call it at the start of the test; `pages` may
 * grow as the test opens more.
 */
export function saveArtifactsOnTimeout(name: string, pages: Array<{ page: Page; console: string[] }>): void {
  onTestFailed(async () => {
    if (pages.every(({ page }) => page.isClosed())) return;
    await saveArtifacts(name, pages.filter(({ page }) => !page.isClosed()));
  });
}
