import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from './wait.js';

/** The repository root: roles are started from their TypeScript entry points there. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RoleProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The last few kilobytes the process printed, for failure messages. */
  output(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly alive: boolean;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (clean shutdown), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const started = new Set<RoleProcess>();

/**
 * Starts a role (`command-api/src/main.ts`, `projections/src/main.ts`, a
 * support script…) as a separate Node process, as it runs in production, with
 * only the environment given (plus PATH and HOME).
 */
export function startProcess(entry: string, env: Record<string, string>, label = entry): RoleProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const handle: RoleProcess = {
    child,
    pid: child.pid ?? -1,
    output: () => `--- ${label} (pid ${child.pid}) ---\n${tail}`,
    exited,
    get alive() {
      return child.exitCode === null && child.signalCode === null;
    },
    async kill() {
      if (handle.alive) child.kill('SIGKILL');
      await exited;
      started.delete(handle);
    },
    async stop(graceMs = 10_000) {
      if (handle.alive) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      started.delete(handle);
    },
  };
  started.add(handle);
  void exited.then(() => started.delete(handle));
  return handle;
}

/** Kills every process this test file started and that still runs (afterAll). */
export async function killAllStarted(): Promise<void> {
  await Promise.all([...started].map((handle) => handle.kill()));
}

/**
 * Starts the API role on `port` and waits until /api/health answers (200 or 503).
 * A long read-your-writes wait by default: on a loaded shared server a command
 * would otherwise answer 202 (read models late) where a test counts its 200.
 */
export async function startApiProcess(env: Record<string, string>, port: number): Promise<{ process: RoleProcess; url: string }> {
  const role = startProcess('command-api/src/main.ts', { HOST: '127.0.0.1', PORT: String(port), SEED_DEMO: 'false', LOG_LEVEL: 'warn', READ_YOUR_WRITES_TIMEOUT_MS: '30000', ...env }, 'command-api');
  const url = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (!role.alive) throw new Error(`the API exited while starting\n${role.output()}`);
      const res = await fetch(`${url}/api/health`).catch(() => null);
      return res !== null;
    },
    'the API to listen',
    60_000,
    100,
  ).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${role.output()}`);
  });
  return { process: role, url };
}
