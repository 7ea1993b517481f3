import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisAnswers } from '@fsm/command-api';
import { freePort } from './free-port.js';
import { until } from './wait.js';

/*
 * A redis-server of the test's own, on a free port, with its files in a temp
 * folder: the test may stop it for a minute without touching the shared Redis
 * (6379) that other test runs use. Persistence (append-only file) is on, so a
 * stop and start keeps the queues, as a real restart of a configured Redis does.
 */

export interface PrivateRedis {
  url: string;
  port: number;
  readonly running: boolean;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'fsm-faults-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''], {
      stdio: 'ignore',
    });
    child = server;
    await until(async () => {
      if (server.exitCode !== null) throw new Error(`redis-server exited with ${server.exitCode} (port ${port} taken?)`);
      return redisAnswers(url, 500);
    }, `redis-server on ${port}`, 20_000);
  };
  const stop = async () => {
    const server = child;
    child = undefined;
    if (!server || server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    port,
    get running() {
      return child !== undefined;
    },
    stop,
    start,
    async destroy() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
