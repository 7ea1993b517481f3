/*
 * Issue #19, item 4: the paged, virtualised screens in a real browser
 * (Debian's chromium through playwright-core) against the running stack,
 * which serves the built web client (web/dist, `npm run build`).
 *
 * Per case: ms from the navigation, or from the filter change / click, to
 * the first card or row of the expected result drawn (the status line shows
 * the total the API gives for those filters and a card/row is laid out),
 * checked every animation frame in the page; median of the repetitions,
 * each on a fresh document (empty query cache). Then, on the last
 * repetition's page, scroll until 2,000 rows were drawn (or the end of the
 * result), force a GC through CDP and read the JS heap and the DOM node count.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { addCalendarDays, defaultClosedTicketsRange, defaultStatsWindow, parisCalendarDay } from '@fsm/contracts';
import { benchDataDir } from '../seed.js';
import { BENCH_PASSWORD } from '../seed/master-data.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumMissing } from '../lib/chromium.js';
import { call, login } from '../lib/http.js';
import { distribution, type Distribution } from '../lib/stats.js';
import type { StackProcess } from '../lib/stack-process.js';
import { webBuilt, WEB_ROOT, type BenchDatabase } from './context.js';

/** The shared flags, plus precise memory figures. */
const BROWSER_ARGS = [...CHROMIUM_ARGS, '--enable-precise-memory-info'];

/** Rows to scroll through before reading memory (issue #19: "after scrolling 2,000 rows"). */
export const SCROLLED_ROWS = 2_000;
export const BROWSER_TARGETS = { firstRowsMs: 1_000, domNodes: 5_000, heapMb: 80 } as const;

export interface BrowserCase {
  name: string;
  /** Time to the first rows, ms: one sample per repetition. */
  firstRows: Distribution;
  /** The result's size, as the API counts it. */
  total: number;
  /** Distinct rows drawn while scrolling (≤ SCROLLED_ROWS, or the whole result). */
  rowsShown: number;
  domNodes: number;
  heapMb: number;
}

export interface BrowserResult {
  chromium: string;
  cases: BrowserCase[];
}

type Who = 'agency' | 'platform';
interface Case {
  name: string;
  who: Who;
  kind: 'tickets' | 'stats';
  /** Where the screen opens. */
  url: string;
  /** The API's count for the measured result (the same filters as the screen). */
  totalPath: string;
  /** Untimed set-up on the opened screen (opening the filters panel). */
  prepare?: (page: Page) => Promise<void>;
  /** A filter change on the opened screen, timed from just before it; none = the navigation is timed. */
  act?: (page: Page) => Promise<void>;
  /** The total shown before `act` (the screen's default result), waited for first. */
  beforePath?: string;
}

/*
 * In-page code: plain functions with their data as an argument (the product's CSP forbids eval, so no
 * strings), and no named inner functions (tsx would wrap them in a helper the page does not have).
 */
const ROW_SELECTOR = { tickets: 'article[aria-labelledby]', stats: 'tbody tr[aria-rowindex]' } as const;
const ROW_KEY = { tickets: 'aria-labelledby', stats: 'aria-rowindex' } as const;

/** performance.now() once the status line shows `total` tickets and a row of them is drawn, else false. */
function shownAt({ selector, total }: { selector: string; total: number }): number | false {
  const label = `${new Intl.NumberFormat('fr-FR').format(total)} ticket`;
  const status = [...document.querySelectorAll('[role=status]')].some((el) => (el.textContent ?? '').startsWith(label));
  if (!status) return false;
  // Drawn (laid out), not necessarily inside the viewport: the stats table starts below the gauges and the chart.
  const row = [...document.querySelectorAll(selector)].find((el) => el.getBoundingClientRect().height > 0);
  return row ? performance.now() : false;
}

/** Notes the rows drawn now, then scrolls most of a screen (more would skip rows the virtualiser never draws). */
function scrollStep({ selector, key }: { selector: string; key: string }): { seen: number; height: number; bottom: boolean } {
  const holder = window as unknown as { benchSeen?: Set<string | null> };
  const seen = (holder.benchSeen ??= new Set());
  for (const el of document.querySelectorAll(selector)) seen.add(el.getAttribute(key));
  const height = document.documentElement.scrollHeight;
  window.scrollBy(0, window.innerHeight * 0.8);
  return { seen: seen.size, height, bottom: window.scrollY + window.innerHeight >= height - 2 };
}

async function signedIn(browser: Browser, baseUrl: string, email: string): Promise<BrowserContext> {
  const answer = await call<{ token: string; user: unknown }>(baseUrl, null, 'POST', '/api/login', { email, motdepasse: BENCH_PASSWORD });
  if (answer.status !== 200) throw new Error(`connexion ${email} : ${answer.status} ${JSON.stringify(answer.body)}`);
  const context = await browser.newContext({ baseURL: baseUrl, locale: 'fr-FR', timezoneId: 'Europe/Paris', reducedMotion: 'reduce', viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(60_000);
  // The session as the login screen leaves it (e2e/support/browser.ts signedInContext).
  await context.addInitScript(
    ([token, user]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', user);
    },
    [answer.body.token, JSON.stringify(answer.body.user)] as const,
  );
  return context;
}

async function apiTotal(baseUrl: string, token: string, path: string): Promise<number> {
  const answer = await call<{ total: number }>(baseUrl, token, 'GET', path);
  if (answer.status !== 200 || typeof answer.body.total !== 'number') throw new Error(`${path} : ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body.total;
}

/** ms until `total` rows are shown: from the document's start (navigation) or from `since` (page clock). */
async function waitShown(page: Page, kind: Case['kind'], total: number, since = 0): Promise<number> {
  try {
    const handle = await page.waitForFunction(shownAt, { selector: ROW_SELECTOR[kind], total }, { polling: 'raf', timeout: 60_000 });
    return ((await handle.jsonValue()) as number) - since;
  } catch (error) {
    const statuses = await page.evaluate(() => [...document.querySelectorAll('[role=status], [role=alert]')].map((el) => el.textContent)).catch(() => []);
    const shot = join(benchDataDir('browser'), 'failure.png');
    await mkdir(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    throw new Error(`${page.url()} : ${total} tickets attendus, jamais affichés (statut : ${JSON.stringify(statuses)} ; capture ${shot}) — ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Scrolls until SCROLLED_ROWS distinct rows were drawn or the result ends (no growth for 5 s at the bottom). */
async function scrollRows(page: Page, kind: Case['kind'], total: number): Promise<number> {
  const want = Math.min(SCROLLED_ROWS, total);
  let seen = 0;
  let lastHeight = 0;
  let stalledSince = Date.now();
  for (let step = 0; step < 5_000; step++) {
    const state = await page.evaluate(scrollStep, { selector: ROW_SELECTOR[kind], key: ROW_KEY[kind] });
    seen = state.seen;
    if (seen >= want) break;
    if (state.height !== lastHeight || !state.bottom) {
      lastHeight = state.height;
      stalledSince = Date.now();
    } else if (Date.now() - stalledSince > 5_000) break;
    await page.waitForTimeout(30);
  }
  return seen;
}

/** Why a browser scenario (this one, Lighthouse) cannot run here (no Chromium, no built client), or null. */
export function browserUnavailable(): string | null {
  const missing = chromiumMissing();
  if (missing !== null) return missing;
  if (!webBuilt()) return `client web absent (${WEB_ROOT}) : lancez d'abord npm run build`;
  return null;
}

export async function browserScenario(db: BenchDatabase, stack: StackProcess, repetitions: number, say: (m: string) => void): Promise<BrowserResult> {
  const unavailable = browserUnavailable();
  if (unavailable) throw new Error(unavailable);
  const agency = db.seed.master.agencies[0]!;
  const emails: Record<Who, string> = { agency: agency.admin.email, platform: db.seed.master.platformAdmin.email };
  const tokens: Record<Who, string> = { agency: await login(stack.url, emails.agency), platform: await login(stack.url, emails.platform) };
  // The screens' defaults, computed as the web client computes them (Paris days).
  const now = new Date();
  const today = parisCalendarDay(now);
  const yearAgo = addCalendarDays(today, -364);
  const closed = defaultClosedTicketsRange(now);
  const stats = defaultStatsWindow(now);

  const statsYear: Case['act'] = async (page) => {
    await page.getByLabel('Du', { exact: true }).fill(yearAgo);
    await page.getByRole('button', { name: 'Appliquer' }).click();
  };
  const cases: Case[] = [
    { name: 'Liste des tickets ouverts (agence)', who: 'agency', kind: 'tickets', url: '/tickets', totalPath: '/api/tickets?limit=1' },
    { name: 'Liste des tickets ouverts (toutes agences)', who: 'platform', kind: 'tickets', url: '/tickets', totalPath: '/api/tickets?limit=1' },
    {
      name: 'Recherche clos, 30 jours (agence)',
      who: 'agency',
      kind: 'tickets',
      url: '/tickets?statut=clos',
      totalPath: `/api/tickets/clos?date_debut=${closed.date_debut}&date_fin=${closed.date_fin}&limit=1`,
    },
    {
      name: 'Recherche clos, un an (agence)',
      who: 'agency',
      kind: 'tickets',
      url: '/tickets?statut=clos',
      beforePath: `/api/tickets/clos?date_debut=${closed.date_debut}&date_fin=${closed.date_fin}&limit=1`,
      totalPath: `/api/tickets/clos?date_debut=${yearAgo}&date_fin=${closed.date_fin}&limit=1`,
      prepare: (page) => page.getByRole('button', { name: 'Filtres' }).click(),
      act: (page) => page.getByLabel('Demandé à partir du').fill(yearAgo),
    },
    { name: 'Statistiques 30 jours (agence)', who: 'agency', kind: 'stats', url: '/stats', totalPath: `/api/stats/tickets?from=${stats.from}&to=${stats.to}&limit=1` },
    { name: 'Statistiques 30 jours (toutes agences)', who: 'platform', kind: 'stats', url: '/stats', totalPath: `/api/stats/tickets?from=${stats.from}&to=${stats.to}&limit=1` },
    ...(['agency', 'platform'] as const).map(
      (who): Case => ({
        name: `Statistiques 1 an (${who === 'agency' ? 'agence' : 'toutes agences'})`,
        who,
        kind: 'stats',
        url: '/stats',
        beforePath: `/api/stats/tickets?from=${stats.from}&to=${stats.to}&limit=1`,
        totalPath: `/api/stats/tickets?from=${yearAgo}&to=${stats.to}&limit=1`,
        act: statsYear,
      }),
    ),
  ];

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: BROWSER_ARGS });
  const contexts = new Map<Who, BrowserContext>();
  try {
    for (const who of ['agency', 'platform'] as const) contexts.set(who, await signedIn(browser, stack.url, emails[who]));
    const results: BrowserCase[] = [];
    for (const c of cases) {
      const total = await apiTotal(stack.url, tokens[c.who], c.totalPath);
      const before = c.beforePath ? await apiTotal(stack.url, tokens[c.who], c.beforePath) : null;
      const page = await contexts.get(c.who)!.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const samples: number[] = [];
      try {
        // One warm-up (Chromium's cache of the bundle, the server's plans), not counted.
        for (let r = 0; r <= repetitions; r++) {
          if (total === 0) break;
          await page.goto(c.url, { waitUntil: 'commit' });
          let ms: number;
          if (c.act) {
            if (before !== null && before > 0) await waitShown(page, c.kind, before);
            else await page.getByRole('heading', { level: 1 }).waitFor();
            await c.prepare?.(page);
            const since = await page.evaluate(() => performance.now());
            await c.act(page);
            ms = await waitShown(page, c.kind, total, since);
          } else ms = await waitShown(page, c.kind, total);
          if (r > 0) samples.push(ms);
        }
        const rowsShown = total === 0 ? 0 : await scrollRows(page, c.kind, total);
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('HeapProfiler.collectGarbage');
        const heap = await cdp.send('Runtime.getHeapUsage');
        await cdp.detach();
        const domNodes = await page.evaluate(() => document.querySelectorAll('*').length);
        const result: BrowserCase = { name: c.name, firstRows: distribution(samples), total, rowsShown, domNodes, heapMb: heap.usedSize / 2 ** 20 };
        say(
          `  ${c.name} : premières lignes ${result.firstRows.median.toFixed(0)} ms (médiane, max ${result.firstRows.max.toFixed(0)}), ${rowsShown}/${total} lignes, ${domNodes} nœuds, tas ${result.heapMb.toFixed(1)} Mo`,
        );
        if (pageErrors.length > 0) say(`    erreurs de la page : ${pageErrors.slice(0, 3).join(' | ')}`);
        results.push(result);
      } finally {
        await page.close();
      }
    }
    return { chromium: browser.version(), cases: results };
  } finally {
    await browser.close();
  }
}
