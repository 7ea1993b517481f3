/*
 * npm run bench [-- --database fsm_bench] [--query-databases fsm_bench_100k,fsm_bench]
 *               [--scenarios floor,commands,queries,explain,browser,lighthouse,live,reports,rebuild] [--quick] [--out docs/benchmarks.md]
 *
 * Runs every scenario of issue 10 against seeded databases (npm run bench:seed)
 * and writes docs/benchmarks.md. See bench/README.md.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { adminDatabaseUrl, checkDatabaseName, intOption, log, parseArgs, stringOption } from './lib/args.js';
import type { StackProcess } from './lib/stack-process.js';
import { renderMarkdown, type BenchResults, type SeedSummary } from './report.js';
import { appendFloor } from './scenarios/append-floor.js';
import { browserScenario, browserUnavailable } from './scenarios/browser.js';
import { commandsScenario } from './scenarios/commands.js';
import { openBenchDatabase, startStack, type BenchDatabase } from './scenarios/context.js';
import { lighthouseScenario } from './scenarios/lighthouse.js';
import { liveScenario } from './scenarios/live.js';
import { explainScenario, firstPagesScenario, queriesScenario } from './scenarios/queries.js';
import { rebuildScenario } from './scenarios/rebuild.js';
import { reportsScenario } from './scenarios/reports.js';

const ALL = ['floor', 'commands', 'queries', 'explain', 'browser', 'lighthouse', 'live', 'reports', 'rebuild'] as const;
type Scenario = (typeof ALL)[number];
const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));

async function existingDatabases(names: readonly string[]): Promise<string[]> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = ANY($1)', [names]);
    return names.filter((name) => rows.some((row) => row.datname === name));
  } finally {
    await admin.end();
  }
}

function summary(db: BenchDatabase): SeedSummary {
  const s = db.seed;
  return {
    database: db.database,
    tickets: s.tickets,
    events: s.events,
    appendSeconds: s.appendSeconds,
    appendEventsPerSecond: s.appendEventsPerSecond,
    rebuildSeconds: s.rebuildSeconds,
    rebuildEventsPerSecond: s.rebuildEventsPerSecond,
    totalSeconds: s.totalSeconds,
    peakRssMb: s.peakRssMb,
    synthetic: (s as { synthetic?: boolean }).synthetic === true,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const quick = args.has('quick');
  const database = checkDatabaseName(stringOption(args, 'database', 'fsm_bench'));
  const scenarios = new Set<Scenario>(
    stringOption(args, 'scenarios', ALL.join(','))
      .split(',')
      .map((s) => s.trim())
      .filter((s): s is Scenario => (ALL as readonly string[]).includes(s)),
  );
  const wantedQueryDbs = stringOption(args, 'query-databases', quick ? database : `fsm_bench_100k,${database}`)
    .split(',')
    .map((name) => checkDatabaseName(name.trim()));
  const rebuildDatabase = checkDatabaseName(stringOption(args, 'rebuild-database', database));
  const out = resolve(repoRoot, stringOption(args, 'out', 'docs/benchmarks.md'));
  const seconds = intOption(args, 'seconds', quick ? 2 : 10);
  const repetitions = intOption(args, 'repetitions', quick ? 5 : 30);

  const pgVersion = await (async () => {
    const client = new pg.Client({ connectionString: adminDatabaseUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      return `PostgreSQL ${rows[0]?.server_version ?? '?'}`;
    } finally {
      await client.end();
    }
  })();
  const results: BenchResults = {
    date: new Date().toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    quick,
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?', ramGb: totalmem() / 2 ** 30, postgres: pgVersion, node: process.version, loadBefore: loadavg(), loadAfter: [] },
    database,
    scenarios: ALL.filter((s) => scenarios.has(s)),
    partial: ALL.some((s) => !scenarios.has(s)),
    seeds: [],
    peakRss: [],
  };
  log(`banc : ${[...scenarios].join(', ')} sur ${database}${quick ? ' (rapide)' : ''}`);

  const opened = new Map<string, BenchDatabase>();
  const open = async (name: string) => {
    let db = opened.get(name);
    if (!db) {
      db = await openBenchDatabase(name);
      opened.set(name, db);
      results.seeds.push(summary(db));
    }
    return db;
  };
  const main = await open(database);
  let stack: StackProcess | undefined;
  const withStack = async <T>(db: BenchDatabase, work: (stack: StackProcess) => Promise<T>): Promise<T> => {
    if (!stack || (stack as StackProcess & { db?: string }).db !== db.database) {
      await stack?.stop();
      log(`démarrage de la pile sur ${db.database}…`);
      stack = await startStack(db);
      (stack as StackProcess & { db?: string }).db = db.database;
      results.stackStartupRssMb ??= stack.startupRssMb;
    }
    return work(stack);
  };

  try {
    if (scenarios.has('floor')) {
      log('plancher d’écriture (INSERT d’une ligne par transaction)…');
      results.floor = await appendFloor(main, seconds);
      for (const r of results.floor) log(`  ${r.clients} client(s) : ${Math.round(r.commitsPerSecond)} commits/s, p99 ${r.latency.p99.toFixed(2)} ms`);
    }

    if (scenarios.has('queries')) {
      results.queries = [];
      for (const name of await existingDatabases(wantedQueryDbs)) {
        const db = await open(name);
        log(`requêtes sur ${name} (${db.seed.tickets.toLocaleString('fr-FR')} tickets)…`);
        await withStack(db, async (running) => {
          running.mark();
          const queries = await queriesScenario(db, running, repetitions, log, args.has('heavy') || db.seed.tickets <= 200_000);
          const peak = (await running.collect()).peakRssMb;
          results.queries!.push({ database: name, tickets: db.seed.tickets, results: queries, peakRssMb: peak });
          results.peakRss.push({ scenario: `queries, ${db.seed.tickets.toLocaleString('en-US')} tickets`, mb: peak });
        });
      }
    }

    if (scenarios.has('explain')) {
      const names = await existingDatabases(wantedQueryDbs);
      const biggest = (await Promise.all(names.map(open))).reduce((a, b) => (b.seed.tickets > a.seed.tickets ? b : a), main);
      log(`EXPLAIN (ANALYZE, BUFFERS) sur ${biggest.database}…`);
      const plans = await explainScenario(biggest);
      results.plans = { database: biggest.database, tickets: biggest.seed.tickets, plans };
      for (const plan of plans) log(`  ${plan.name} : ${plan.executionMs.toFixed(2)} ms${plan.seqScans.length ? ` — SEQ SCAN ${plan.seqScans.join('; ')}` : ''}`);
      // Issue #19: the paged lists' first pages on every query database, their plans on the biggest.
      results.firstPages = [];
      for (const name of names) {
        const db = await open(name);
        log(`premières pages (issue 19) sur ${name}…`);
        const { timings, plans: pagePlans } = await firstPagesScenario(db, quick ? 5 : 20);
        for (const t of timings) log(`  ${t.name} : médiane ${t.server.median.toFixed(1)} ms, p95 ${t.server.p95.toFixed(1)} ms (${t.rows} lignes sur ${t.total})`);
        results.firstPages.push({ database: name, tickets: db.seed.tickets, timings, plans: db === biggest ? pagePlans : [] });
      }
    }

    // Without Chromium or the built client the other scenarios still run; the section says not measured.
    const noBrowser = scenarios.has('browser') ? browserUnavailable() : null;
    if (noBrowser) log(`navigateur ignoré : ${noBrowser}`);
    if (scenarios.has('browser') && !noBrowser) {
      results.browser = [];
      for (const name of await existingDatabases(wantedQueryDbs)) {
        const db = await open(name);
        log(`navigateur (Chromium) sur ${name} (${db.seed.tickets.toLocaleString('fr-FR')} tickets)…`);
        await withStack(db, async (running) => {
          running.mark();
          const browser = await browserScenario(db, running, quick ? 3 : 5, log);
          const peak = (await running.collect()).peakRssMb;
          results.browser!.push({ database: name, tickets: db.seed.tickets, ...browser, peakRssMb: peak });
          results.peakRss.push({ scenario: `browser, ${db.seed.tickets.toLocaleString('en-US')} tickets`, mb: peak });
        });
      }
    }

    // Issue 32, item 7: the pages a visitor opens without an account, on the main database's stack.
    const noLighthouse = scenarios.has('lighthouse') ? browserUnavailable() : null;
    if (noLighthouse) log(`Lighthouse ignoré : ${noLighthouse}`);
    if (scenarios.has('lighthouse') && !noLighthouse) {
      log('Lighthouse (mobile) sur /login et le formulaire public…');
      results.lighthouse = await withStack(main, (running) => lighthouseScenario(main, running, quick ? 1 : 3, log));
    }

    if (scenarios.has('commands')) {
      log('commandes HTTP (prise en charge + clôture)…');
      results.commands = await withStack(main, (running) => commandsScenario(main, running, quick ? [1, 16] : [1, 16, 64], seconds, log));
      for (const r of results.commands) results.peakRss.push({ scenario: `commands, ${r.clients} clients`, mb: r.peakRssMb });
    }

    if (scenarios.has('live')) {
      log('temps réel (réponse HTTP → message WebSocket)…');
      results.live = await withStack(main, (running) => liveScenario(main, running, quick ? 10 : 100));
      log(`  p50 ${results.live.writeToScreen.median.toFixed(1)} ms, p95 ${results.live.writeToScreen.p95.toFixed(1)} ms`);
      results.peakRss.push({ scenario: 'write to screen', mb: results.live.peakRssMb });
    }

    if (scenarios.has('reports')) {
      log('rapports PDF…');
      results.reports = await reportsScenario(main, quick ? 10 : 100);
      log(`  ${results.reports.jobsPerSecond.toFixed(1)} travaux/s, ${results.reports.rendersPerSecond.toFixed(1)} rendus/s`);
    }

    if (scenarios.has('rebuild')) {
      const db = await open(rebuildDatabase);
      log(`reconstruction des vues sur ${db.database}…`);
      const rebuild = await withStack(db, (running) => rebuildScenario(db, running, log));
      results.rebuild = { ...rebuild, database: db.database };
      results.peakRss.push({ scenario: `rebuild, ${db.seed.tickets.toLocaleString('en-US')} tickets`, mb: rebuild.peakRssMb });
      log(`  lecture ${Math.round(rebuild.readEventsPerSecond)} évén./s, reconstruction ${Math.round(rebuild.rebuildEventsPerSecond)} évén./s`);
    }
  } finally {
    await stack?.stop();
    for (const db of opened.values()) await db.pool.end();
  }

  results.machine.loadAfter = loadavg();
  const json = join(repoRoot, '.data', 'bench', `results-${results.date.replace(/[:.]/g, '-')}.json`);
  await mkdir(dirname(json), { recursive: true });
  await writeFile(json, JSON.stringify(results, null, 2));
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, renderMarkdown(results, out));
  log(`écrit : ${out} (données brutes : ${json})`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench a échoué : ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
