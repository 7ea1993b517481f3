import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNDED_ANSWER_MESSAGES, addCalendarDays, parisCalendarDay, summarizeStats, type StatsTicketItem } from '@fsm/contracts';
import { createTokenService } from '@fsm/command-api';
import { runSeed, type SeedReport } from '../bench/seed.js';
import { recordFigures } from './support/figures.js';
import { freePort } from './support/free-port.js';
import { startPrivateDatabase, type PrivateDatabase } from './support/private-postgres.js';
import { killAllStarted, startApiProcess, type RoleProcess } from './support/processes.js';
import { startRoleEnvironment, type RoleEnvironment } from './support/role-environment.js';
import { FAULTS_TOKEN_SECRET } from './support/world.js';

/*
 * Issue 28, item 1, "done when": against a bench history (bench/seed.ts,
 * 20,000 tickets over two years and 8 agencies), a platform admin fires, in
 * parallel, the unpaged calls an old client makes (the closed search over all
 * time and over a year, a year of statistics, its CSV), while agency admins
 * run their own heavy reads and one client leaves mid-answer. The API process
 * runs with a ceiling of 12,000 rows (a year of every agency here is ~10,000
 * tickets, all time ~20,000) and the default limits (2 heavy reads per user,
 * 4 per instance). Meanwhile:
 * - every answer is complete and correct (counted against SQL), or a French
 *   422 (above the ceiling, and SQL agrees it is) or 429 with Retry-After;
 * - the API's RSS, sampled every 50 ms, grows by less than RSS_GROWTH_MAX_MB;
 * - another user's first pages keep answering 200.
 */

const TICKETS = 20_000;
const CEILING = 12_000;
const WAVES = 4;
/** Measured here: 0 to 31 MB between the second wave's peak and the last's. */
const WAVE_DRIFT_MAX_MB = 60;
/** Measured here: ~100 MB (heap slack included) for 4 streams at once; 12 unlimited calls, see the second test. */
const RSS_GROWTH_MAX_MB = 160;

let database: PrivateDatabase;
let roles: RoleEnvironment;
let pool: pg.Pool;
let api: RoleProcess;
let base: string;
let seed: SeedReport;
const tokens: Record<'platform' | 'firstPages', string> & { agencyAdmins: string[] } = { platform: '', firstPages: '', agencyAdmins: [] };

beforeAll(async () => {
  database = await startPrivateDatabase('fsm_heavy_reads');
  roles = await startRoleEnvironment(database.url, 'heavy');
  // The seed's in-process app counts its limits in this test's Redis, not the shared one.
  process.env.BENCH_REDIS_URL = roles.redis.url;
  seed = await runSeed({ tickets: TICKETS, database: 'fsm_heavy_reads', url: database.url, days: 730, seed: 28, quiet: true, dataDir: roles.env.DATA_DIR });
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on('error', () => undefined);
  const signer = createTokenService({ secret: FAULTS_TOKEN_SECRET, ttlHours: 2 });
  tokens.platform = await signer.sign({ sub: seed.master.platformAdmin.id });
  tokens.agencyAdmins = await Promise.all(seed.master.agencies.slice(0, 4).map((agency) => signer.sign({ sub: agency.admin.id })));
  tokens.firstPages = await signer.sign({ sub: seed.master.agencies[5]!.admin.id });
  ({ process: api, url: base } = await startApiProcess({ ...roles.env, UNPAGED_ROWS_MAX: String(CEILING) }, await freePort()));
}, 240_000);

afterAll(async () => {
  await killAllStarted();
  await pool?.end();
  await roles?.close();
  await database?.destroy();
});

/** The API process's resident memory, in MB (Linux). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

interface Answer {
  what: string;
  url: string;
  status: number;
  retryAfter: string | null;
  bytes: number;
  ms: number;
  text: string;
}

async function call(token: string, what: string, url: string): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { what, url, status: res.status, retryAfter: res.headers.get('retry-after'), bytes: Buffer.byteLength(text), ms: Date.now() - started, text };
}

/** A client that reads the first bytes of a long answer, then leaves. */
async function leaveMidAnswer(token: string, url: string): Promise<number> {
  const controller = new AbortController();
  const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  if (res.status === 200 && res.body) {
    const reader = res.body.getReader();
    await reader.read();
    controller.abort();
    await reader.read().catch(() => undefined);
  } else {
    await res.text();
  }
  return res.status;
}

const sqlCount = async (sql: string, params: unknown[]) => Number((await pool.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);

describe('unpaged calls over all time, in parallel, as a platform admin', () => {
  it('keep the API bounded: complete answers, or a French 422/429; memory bounded; first pages answer', async () => {
    const today = parisCalendarDay(new Date());
    const yearAgo = addCalendarDays(today, -364);
    const calls: [string, string][] = [
      ['closed, all time', '/api/tickets/clos?date_debut=2000-01-01'],
      ['closed, a year', `/api/tickets/clos?date_debut=${yearAgo}&date_fin=${today}`],
      ['open, all', '/api/tickets'],
      ['stats, a year', `/api/stats/tickets?from=${yearAgo}&to=${today}`],
      ['stats, two years', `/api/stats/tickets?from=${addCalendarDays(today, -729)}&to=${today}`],
      ['CSV, a year', `/api/stats/tickets.csv?from=${yearAgo}&to=${today}`],
    ];
    // The expected answers, from SQL (nothing writes meanwhile).
    const closedCount = (from: string, to: string | null) =>
      sqlCount(
        `SELECT count(*) AS n FROM rm.tickets WHERE statut = 'clos' AND created_at >= ($1::date::timestamp AT TIME ZONE 'Europe/Paris')
           AND ($2::date IS NULL OR created_at < (($2::date + 1)::timestamp AT TIME ZONE 'Europe/Paris'))`,
        [from, to],
      );
    const statsCount = (from: string, to: string) =>
      sqlCount(
        `SELECT count(*) AS n FROM rm.ticket_sla s JOIN rm.tickets t ON t.id = s.ticket_id
          WHERE s.created_at >= ($1::date::timestamp AT TIME ZONE 'Europe/Paris') AND s.created_at < (($2::date + 1)::timestamp AT TIME ZONE 'Europe/Paris')`,
        [from, to],
      );
    const expected = new Map<string, number>([
      ['closed, all time', await closedCount('2000-01-01', null)],
      ['closed, a year', await closedCount(yearAgo, today)],
      ['open, all', await sqlCount(`SELECT count(*) AS n FROM rm.tickets WHERE statut <> 'clos'`, [])],
      ['stats, a year', await statsCount(yearAgo, today)],
      ['stats, two years', await statsCount(addCalendarDays(today, -729), today)],
      ['CSV, a year', await statsCount(yearAgo, today)],
    ]);

    // Warm the process (the first calls compile and connect), then take the baseline.
    await call(tokens.firstPages, 'warm-up', '/api/tickets?limit=20');
    await call(tokens.platform, 'warm-up', `/api/tickets/clos?date_debut=${addCalendarDays(today, -6)}&date_fin=${today}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baselineMb = rssMb(api.pid);
    let peakMb = baselineMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(api.pid))), 50);

    // Another user's first pages, all along.
    let storming = true;
    const firstPages: { status: number; ms: number }[] = [];
    const firstPager = (async () => {
      while (storming) {
        for (const url of ['/api/tickets?limit=20', '/api/tickets/clos?limit=20']) {
          const answer = await call(tokens.firstPages, 'first page', url);
          firstPages.push({ status: answer.status, ms: answer.ms });
        }
      }
    })();

    const answers: Answer[] = [];
    const left: number[] = [];
    const wavePeaksMb: number[] = [];
    const started = Date.now();
    try {
      for (let wave = 0; wave < WAVES; wave++) {
        // The platform admin leaves a 16 MB answer after its first bytes: its slot must come back for the wave.
        left.push(await leaveMidAnswer(tokens.platform, `/api/tickets/clos?date_debut=${yearAgo}&date_fin=${today}`));
        const platform = calls.flatMap(([what, url]) => [call(tokens.platform, what, url), call(tokens.platform, what, url)]);
        const agencies = tokens.agencyAdmins.map((token, index) => call(token, 'closed, all time (agency)', `/api/tickets/clos?date_debut=2000-01-01${index % 2 ? '' : '&devis_attente=1'}`));
        answers.push(...(await Promise.all([...platform, ...agencies])));
        wavePeaksMb.push(peakMb);
      }
    } finally {
      storming = false;
      await firstPager;
      clearInterval(sampler);
    }
    const stormMs = Date.now() - started;

    // Every answer: complete and correct, or a French refusal.
    const byStatus: Record<string, number> = {};
    for (const answer of answers) {
      byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
      const where = `${answer.what} → ${answer.status} ${answer.text.slice(0, 200)}`;
      if (answer.status === 429) {
        expect(answer.retryAfter, where).toMatch(/^\d+$/);
        expect(JSON.parse(answer.text), where).toEqual({ error: BOUNDED_ANSWER_MESSAGES.heavyReadsBusy, code: 'TOO_MANY_REQUESTS' });
        continue;
      }
      if (answer.status === 422) {
        const body = JSON.parse(answer.text) as { error: string; code: string };
        expect(body.code, where).toBe('ANSWER_TOO_LARGE');
        expect(body.error, where).toMatch(/^Trop de tickets pour (une seule réponse|un export immédiat) \([\d\u00a0]+\) : /);
        const total = expected.get(answer.what);
        if (total !== undefined) expect(total, where).toBeGreaterThan(CEILING);
        continue;
      }
      expect(answer.status, where).toBe(200);
      const total = expected.get(answer.what);
      if (answer.what.startsWith('CSV')) {
        expect(answer.text.split('\r\n').length - 2, where).toBe(total);
      } else if (answer.what.startsWith('stats')) {
        const body = JSON.parse(answer.text) as { summary: unknown; items: StatsTicketItem[] };
        expect(body.items.length, where).toBe(total);
        expect(new Set(body.items.map((item) => item.id)).size, where).toBe(total);
        expect(body.summary, where).toEqual(summarizeStats(body.items));
      } else {
        const body = JSON.parse(answer.text) as { tickets: { id: string }[] };
        expect(new Set(body.tickets.map((ticket) => ticket.id)).size, where).toBe(body.tickets.length);
        if (total !== undefined) expect(body.tickets.length, where).toBe(total);
      }
    }
    // Each kind was both served and refused somewhere: the storm hit every path.
    expect(byStatus[200], 'complete answers').toBeGreaterThan(0);
    expect(byStatus[422], 'over the ceiling').toBeGreaterThan(0);
    expect(byStatus[429], 'past the limits').toBeGreaterThan(0);
    expect(answers.filter((a) => a.what === 'closed, all time').every((a) => a.status !== 200)).toBe(true);

    expect(left, 'the client that left started with nothing else running').toEqual(Array(WAVES).fill(200));
    // Each wave after a client left: the platform admin's two slots were back.
    expect(answers.filter((a) => a.status !== 429 && a.what !== 'closed, all time (agency)').length).toBeGreaterThanOrEqual(2 * WAVES);

    // Other users' first pages kept answering.
    expect(firstPages.length).toBeGreaterThan(0);
    expect(firstPages.every((page) => page.status === 200)).toBe(true);

    // Every slot came back, the one of the client that left included: 4 users, 4 heavy reads at once.
    const after = await Promise.all(tokens.agencyAdmins.map((token) => call(token, 'after', `/api/tickets/clos?date_debut=${yearAgo}&date_fin=${today}`)));
    expect(after.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);

    const growthMb = peakMb - baselineMb;
    const firstPageMs = firstPages.map((page) => page.ms).sort((a, b) => a - b);
    recordFigures('heavy-reads', {
      tickets: seed.tickets,
      ceiling: CEILING,
      expected: Object.fromEntries(expected),
      calls: answers.length,
      byStatus,
      leftMidAnswer: left,
      stormSeconds: stormMs / 1000,
      largestAnswerMb: Math.round(Math.max(...answers.map((a) => a.bytes)) / 1e5) / 10,
      slowestAnswerMs: Math.max(...answers.map((a) => a.ms)),
      rssBaselineMb: baselineMb,
      rssPeakMb: peakMb,
      rssGrowthMb: growthMb,
      rssPeakAfterEachWaveMb: wavePeaksMb,
      firstPages: firstPages.length,
      firstPageMedianMs: firstPageMs[Math.floor(firstPageMs.length / 2)],
      firstPageMaxMs: firstPageMs.at(-1),
    });
    expect(growthMb).toBeLessThan(RSS_GROWTH_MAX_MB);
    // Bounded, not merely slow to grow: once the heap has its working size (the first wave), later waves barely move the peak.
    expect(wavePeaksMb.at(-1)! - wavePeaksMb[1]!).toBeLessThan(WAVE_DRIFT_MAX_MB);
  }, 240_000);

  it('for comparison (figures only): the same wave with the ceiling and the limits lifted', async () => {
    await api.stop();
    const unlimited = await startApiProcess({ ...roles.env, UNPAGED_ROWS_MAX: '10000000', HEAVY_READS_PER_USER: '100', HEAVY_READS_PER_INSTANCE: '1000' }, await freePort());
    const today = parisCalendarDay(new Date());
    const yearAgo = addCalendarDays(today, -364);
    const at = async (url: string) => {
      const started = Date.now();
      const res = await fetch(`${unlimited.url}${url}`, { headers: { authorization: `Bearer ${tokens.platform}` } });
      const bytes = (await res.arrayBuffer()).byteLength;
      return { status: res.status, bytes, ms: Date.now() - started };
    };
    await at(`/api/tickets/clos?date_debut=${addCalendarDays(today, -6)}&date_fin=${today}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baselineMb = rssMb(unlimited.process.pid);
    let peakMb = baselineMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(unlimited.process.pid))), 50);
    const started = Date.now();
    const urls = ['/api/tickets/clos?date_debut=2000-01-01', `/api/tickets/clos?date_debut=${yearAgo}&date_fin=${today}`, `/api/stats/tickets?from=${addCalendarDays(today, -729)}&to=${today}`, `/api/stats/tickets.csv?from=${yearAgo}&to=${today}`];
    const answers = await Promise.all(urls.flatMap((url) => [at(url), at(url), at(url)]));
    clearInterval(sampler);
    recordFigures('heavy-reads-unlimited', {
      calls: answers.length,
      statuses: [...new Set(answers.map((a) => a.status))],
      sentMb: Math.round(answers.reduce((sum, a) => sum + a.bytes, 0) / 1e6),
      seconds: (Date.now() - started) / 1000,
      rssBaselineMb: baselineMb,
      rssPeakMb: peakMb,
      rssGrowthMb: peakMb - baselineMb,
    });
    await unlimited.process.stop();
  }, 120_000);
});
