/*
 * Issue 32, item 7: Lighthouse 12 (mobile profile: Moto G Power screen, 4× CPU
 * slowdown, simulated slow 4G) on the two pages a visitor opens without an
 * account: /login and the public QR form (/ticket?key=…), against the stack,
 * which serves the built client (web/dist: `npm run build` first) as in
 * production (precompressed, cached). Debian's chromium, headless, started here
 * with a debugging port for Lighthouse; each run on a fresh profile (empty
 * cache, as a first visit). Per page: the median run by performance score, its
 * FCP, LCP, TBT, and the JavaScript transferred (resource-summary: bytes over
 * the wire, after compression). Each page's last report is kept as JSON under
 * .data/bench/<database>/lighthouse/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import lighthouse from 'lighthouse';
import { benchDataDir } from '../seed.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../lib/chromium.js';
import { call, login } from '../lib/http.js';
import { browserUnavailable } from './browser.js';
import type { StackProcess } from '../lib/stack-process.js';
import { sleep, type BenchDatabase } from './context.js';

/** The targets, for each page. */
export const LIGHTHOUSE_TARGETS = { performance: 90, scriptKb: 250 } as const;

interface LighthouseRun {
  /** 0–100. */
  performance: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Speed Index, ms. */
  siMs: number;
  /** JavaScript over the wire (compressed), bytes. */
  scriptBytes: number;
  scriptRequests: number;
  /** Everything over the wire, bytes. */
  totalBytes: number;
}

interface LighthousePage extends LighthouseRun {
  name: string;
  path: string;
  /** Every run's score, in run order. */
  scores: number[];
}

export interface LighthouseResult {
  lighthouse: string;
  chromium: string;
  pages: LighthousePage[];
}


function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Chromium with a DevTools port, for Lighthouse to drive; stopped by the returned function. */
async function startChromium(): Promise<{ port: number; version: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const profile = await mkdtemp(join(tmpdir(), 'fsm-lighthouse-'));
  const child: ChildProcess = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
    }
    await rm(profile, { recursive: true, force: true });
  };
  for (let tries = 0; tries < 100; tries++) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/json/version`);
      const { Browser } = (await answer.json()) as { Browser: string };
      return { port, version: Browser, stop };
    } catch {
      await sleep(100);
    }
  }
  await stop();
  throw new Error(`Chromium ne répond pas sur le port ${port}`);
}

/** A QR code stuck on an installation (the seed makes none: one is generated through the API, once). */
async function publicFormKey(db: BenchDatabase, stack: StackProcess): Promise<string> {
  const existing = await db.pool.query<{ qr_key: string }>('SELECT qr_key FROM rm.qrcodes WHERE installation_id IS NOT NULL ORDER BY generated_at LIMIT 1');
  if (existing.rows[0]) return existing.rows[0].qr_key;
  const agency = db.seed.master.agencies[0]!;
  const installation = await db.pool.query<{ id: string }>(
    `SELECT i.id FROM rm.installations i JOIN rm.sites s ON s.id = i.site_id JOIN rm.clients c ON c.id = s.client_id WHERE c.agence_id = $1 ORDER BY i.id LIMIT 1`,
    [agency.id],
  );
  const installationId = installation.rows[0]?.id;
  if (!installationId) throw new Error(`aucune installation dans l'agence ${agency.nom}`);
  const token = await login(stack.url, agency.admin.email);
  const answer = await call<{ codes: { qr_key: string }[] }>(stack.url, token, 'POST', '/api/qrcodes/batch', { count: 1, installation_id: installationId });
  const key = answer.body.codes?.[0]?.qr_key;
  if (answer.status !== 201 || !key) throw new Error(`QR code : ${answer.status} ${JSON.stringify(answer.body)}`);
  return key;
}

type Audits = Record<string, { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number; requestCount?: number }[] } }>;

/** Each page's last report is kept for a closer look (open it in the Lighthouse viewer). */
async function audit(url: string, reportPath: string): Promise<LighthouseRun & { version: string }> {
  const chromium = await startChromium();
  try {
    const result = await lighthouse(url, { port: chromium.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`Lighthouse sans résultat pour ${url}`);
    const { lhr } = result;
    await mkdir(dirname(reportPath), { recursive: true });
    await writeFile(reportPath, typeof result.report === 'string' ? result.report : JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`Lighthouse ${url} : ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audits = lhr.audits as unknown as Audits;
    const resources = audits['resource-summary']?.details?.items ?? [];
    const script = resources.find((item) => item.resourceType === 'script');
    const total = resources.find((item) => item.resourceType === 'total');
    const ms = (id: string) => Math.round(audits[id]?.numericValue ?? Number.NaN);
    return {
      version: lhr.lighthouseVersion,
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcpMs: ms('first-contentful-paint'),
      lcpMs: ms('largest-contentful-paint'),
      tbtMs: ms('total-blocking-time'),
      siMs: ms('speed-index'),
      scriptBytes: script?.transferSize ?? 0,
      scriptRequests: script?.requestCount ?? 0,
      totalBytes: total?.transferSize ?? 0,
    };
  } finally {
    await chromium.stop();
  }
}

/** Lighthouse sometimes loses its trace (NO_NAVSTART, NO_FCP on a busy machine): such a run is made again, twice at most. */
async function auditWithRetries(url: string, reportPath: string, say: (m: string) => void): Promise<LighthouseRun & { version: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, reportPath);
    } catch (error) {
      if (attempt >= 3) throw error;
      say(`  nouvel essai : ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

export async function lighthouseScenario(db: BenchDatabase, stack: StackProcess, runs: number, say: (m: string) => void): Promise<LighthouseResult> {
  const unavailable = browserUnavailable();
  if (unavailable) throw new Error(unavailable);
  const key = await publicFormKey(db, stack);
  const pages = [
    { name: 'login', path: '/login' },
    { name: 'public QR form', path: `/ticket?key=${encodeURIComponent(key)}` },
  ];
  let version = '?';
  let chromiumVersion = '?';
  {
    const probe = await startChromium();
    chromiumVersion = probe.version;
    await probe.stop();
  }
  const measured: LighthousePage[] = [];
  for (const page of pages) {
    const done: LighthouseRun[] = [];
    for (let run = 0; run < runs; run++) {
      const report = join(benchDataDir(db.database), 'lighthouse', `${page.name.replace(/\W+/g, '-')}.json`);
      const { version: v, ...figures } = await auditWithRetries(`${stack.url}${page.path}`, report, say);
      version = v;
      done.push(figures);
      say(`  ${page.name} #${run + 1} : performance ${figures.performance}, FCP ${figures.fcpMs} ms, LCP ${figures.lcpMs} ms, TBT ${figures.tbtMs} ms, JS ${(figures.scriptBytes / 1024).toFixed(1)} Ko`);
    }
    // The median run by score (Lighthouse's own advice for a single figure).
    const median = [...done].sort((a, b) => a.performance - b.performance)[Math.floor(done.length / 2)]!;
    measured.push({ name: page.name, path: page.path.replace(key, '<key>'), scores: done.map((run) => run.performance), ...median });
  }
  return { lighthouse: version, chromium: chromiumVersion, pages: measured };
}
