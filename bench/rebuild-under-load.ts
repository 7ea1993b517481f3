/*
 * Issue 28, item 3: what a rebuild costs the API of the one-process start.
 * Starts `npm start`'s launcher (built: launcher/dist/main.js) on a seeded
 * bench database, asks for the open list's first page (limit=50, as the board does) every 100 ms as an
 * agency admin, and samples the RSS of the launcher's process (the API) and
 * of its child processes (the projections and workers roles, when the
 * launcher runs them apart) every 100 ms: 20 s at rest, then during
 * `node projections/dist/rebuild-cli.js` (what `npm run rebuild` runs), then
 * 30 s after. Run by hand (docs/benchmarks.md, "Issue 28: heavy work apart"):
 *
 *   node --conditions=source --import tsx bench/rebuild-under-load.ts --database fsm_heavy_100k [--port 3928] [--redis-db 9]
 *
 * Latencies are measured from the client (loopback), so they include the
 * HTTP round trip.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { call, login } from './lib/http.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'fsm_heavy_100k' },
    port: { type: 'string', default: '3928' },
    'redis-db': { type: 'string', default: '9' },
    'rest-seconds': { type: 'string', default: '20' },
    'after-seconds': { type: 'string', default: '30' },
  },
});
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${values.database}`;
const base = `http://127.0.0.1:${values.port}`;
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: `redis://127.0.0.1:6379/${values['redis-db']}`,
  PORT: values.port,
  HOST: '127.0.0.1',
  PUBLIC_URL: base,
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  DATA_DIR: `.data/heavy/${values.database}`,
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** RSS in MB of one process, from /proc (0 once it has gone). */
function rssMb(pid: number): number {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return (pages * 4096) / 1e6;
  } catch {
    return 0;
  }
}

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Phase {
  name: string;
  latencies: number[];
  errors: number;
  apiPeak: number;
  apiLast: number;
  childPeak: Map<number, number>;
  childLast: Map<number, number>;
}

const newPhase = (name: string): Phase => ({ name, latencies: [], errors: 0, apiPeak: 0, apiLast: 0, childPeak: new Map(), childLast: new Map() });

async function main(): Promise<void> {
  const launcher = spawn(process.execPath, ['launcher/dist/main.js'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const launcherPid = launcher.pid!;
  try {
    for (let attempt = 0; ; attempt++) {
      const health = await fetch(`${base}/api/health`).catch(() => undefined);
      if (health && (health.status === 200 || health.status === 503)) break;
      if (attempt > 600) throw new Error('the launcher did not answer in 60 s');
      await sleep(100);
    }
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ email: string }>(`SELECT email FROM rm.users WHERE role = 'admin' ORDER BY email LIMIT 1`);
    await db.end();
    const token = await login(base, rows[0]!.email);

    let phase = newPhase('rest');
    let stop = false;
    const sampler = (async () => {
      while (!stop) {
        const api = rssMb(launcherPid);
        phase.apiPeak = Math.max(phase.apiPeak, api);
        phase.apiLast = api;
        for (const child of childrenOf(launcherPid)) {
          const rss = rssMb(child);
          phase.childPeak.set(child, Math.max(phase.childPeak.get(child) ?? 0, rss));
          phase.childLast.set(child, rss);
        }
        await sleep(100);
      }
    })();
    const requester = (async () => {
      while (!stop) {
        const current = phase;
        const next = sleep(100);
        const answer = await call(base, token, 'GET', '/api/tickets?limit=50').catch(() => undefined);
        if (answer?.status === 200) current.latencies.push(answer.ms);
        else current.errors++;
        await next;
      }
    })();

    const phases: Phase[] = [phase];
    await sleep(Number(values['rest-seconds']) * 1000);
    phase = newPhase('rebuild');
    phases.push(phase);
    const started = performance.now();
    const rebuild = spawn(process.execPath, ['projections/dist/rebuild-cli.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    await new Promise((done) => rebuild.once('exit', done));
    const rebuildSeconds = (performance.now() - started) / 1000;
    phase = newPhase('after');
    phases.push(phase);
    await sleep(Number(values['after-seconds']) * 1000);
    stop = true;
    await Promise.all([sampler, requester]);

    process.stdout.write(`rebuild: ${rebuildSeconds.toFixed(1)} s\n`);
    for (const { name, latencies, errors, apiPeak, apiLast, childPeak, childLast } of phases) {
      const sorted = [...latencies].sort((a, b) => a - b);
      const children = [...childPeak.keys()].map((pid) => `${pid}: peak ${childPeak.get(pid)!.toFixed(0)} MB, last ${childLast.get(pid)!.toFixed(0)} MB`).join('; ');
      process.stdout.write(
        `${name}: ${sorted.length} requests (${errors} failed), p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms; ` +
          `launcher process (API) RSS peak ${apiPeak.toFixed(0)} MB, last ${apiLast.toFixed(0)} MB${children ? `; children ${children}` : ''}\n`,
      );
    }
  } finally {
    launcher.kill('SIGTERM');
    await new Promise((done) => launcher.once('exit', done));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
