/*
 * The one-process stack under test, as `launcher/src/main.ts` runs it (API,
 * projections, workers with their reactor and render thread), started by
 * bench/run.ts as a child process so the load generator's own CPU and memory
 * are not counted. It reports over IPC:
 *   - server time of every request, from Fastify's own "request completed"
 *     log line (responseTime, ms; for a streamed CSV, until the last byte);
 *   - the peak RSS and the process's CPU time since the last 'mark'.
 * Logs go to an in-memory sink at level info, as in production (LOG_LEVEL's default).
 */
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { parseEnv } from '@fsm/contracts';
import { createPostgresEventStore, productPoolConfig } from '@fsm/eventstore';
import { startAllRoles } from '@fsm/launcher';

export interface Timing {
  method: string;
  url: string;
  status: number;
  ms: number;
}

export type StackRequest = { type: 'mark' } | { type: 'collect' } | { type: 'stop' };
export type StackMessage =
  | { type: 'ready'; url: string; startupRssMb: number }
  | { type: 'collected'; peakRssMb: number; rssMb: number; timings: Timing[]; errors: string[]; cpuMs: number };

const send = (message: StackMessage) => process.send?.(message);

async function main(): Promise<void> {
  // The query scenario measures what the unpaged answers cost at every size (a year of every agency
  // included): no row ceiling unless one is asked for (issue 28). Its probes run one at a time.
  const env = parseEnv({ UNPAGED_ROWS_MAX: '10000000', ...process.env, PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false' });
  let timings: Timing[] = [];
  let errors: string[] = [];
  const pendingUrls = new Map<string, { method: string; url: string }>();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        try {
          const entry = JSON.parse(line) as { msg?: string; reqId?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number; level?: number };
          if (entry.msg === 'incoming request' && entry.reqId && entry.req) pendingUrls.set(entry.reqId, { method: entry.req.method, url: entry.req.url });
          else if (entry.msg === 'request completed' && entry.reqId) {
            const request = pendingUrls.get(entry.reqId);
            pendingUrls.delete(entry.reqId);
            if (request) timings.push({ ...request, status: entry.res?.statusCode ?? 0, ms: entry.responseTime ?? 0 });
          } else if ((entry.level ?? 0) >= 50) errors.push(line.slice(0, 500));
        } catch {
          // not JSON: ignore
        }
      }
      done();
    },
  });
  const logger = pino({ level: 'info', name: 'fsm' }, sink);

  const pool = new pg.Pool(productPoolConfig(env.DATABASE_URL, 20));
  const store = createPostgresEventStore({ pool });
  await store.migrate();
  const queuePrefix = process.env.BENCH_QUEUE_PREFIX ?? 'fsmbench';
  // The built web client too (WEB_ROOT, set by bench/scenarios/context.ts when web/dist exists), for the browser scenario.
  const { api, close } = await startAllRoles({ env, pool, store, logger, queuePrefix, webRoot: env.WEB_ROOT });

  let peak = process.memoryUsage().rss;
  // CPU of the whole process (every thread: API, projections, workers, render thread) since the last mark.
  let cpuAtMark = process.cpuUsage();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  sampler.unref();
  send({ type: 'ready', url: api.url, startupRssMb: Math.round(peak / 1e6) });

  process.on('message', (message: StackRequest) => {
    if (message.type === 'mark') {
      peak = process.memoryUsage().rss;
      cpuAtMark = process.cpuUsage();
      timings = [];
      errors = [];
    } else if (message.type === 'collect') {
      const rss = process.memoryUsage().rss;
      const cpu = process.cpuUsage(cpuAtMark);
      send({ type: 'collected', peakRssMb: Math.round(Math.max(peak, rss) / 1e6), rssMb: Math.round(rss / 1e6), timings, errors, cpuMs: (cpu.user + cpu.system) / 1000 });
    } else if (message.type === 'stop') {
      void (async () => {
        clearInterval(sampler);
        await close();
        process.exit(0);
      })();
    }
  });
  process.on('disconnect', () => process.exit(0));
}

main().catch((error: unknown) => {
  process.stderr.write(`bench stack: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
