import { fork, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Logger } from 'pino';

/*
 * Issue 28, item 3: the heavy roles of `npm start` (projections, whose
 * blue/green rebuild replays the whole log, and workers, which render PDFs)
 * run in child processes of the launcher, each with its own heap limit and a
 * lower CPU priority than the API's, so a rebuild neither slows the API's
 * requests much nor grows the API's memory. Each child is the role's own
 * main (the one docker-compose runs), supervised: restarted after a crash,
 * with a growing delay, and stopped with the launcher.
 */

/*
 * glibc's malloc keeps what a process frees (pg's row buffers, the batches'
 * Buffers) in per-thread arenas, and raises its mmap threshold after each
 * large free. After a 100k rebuild the projections child held ~210 MB for
 * about 90 s before it fell back to ~120 MB; with these, about 35 s, to
 * ~110 MB (one run each: docs/benchmarks.md, "Issue 28: heavy work apart").
 * A value set in the environment wins; other C libraries ignore them.
 */
const RETURN_FREED_MEMORY = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '131072' };

/** Niceness of the heavy roles: the API (0) gets the CPU first. */
export const HEAVY_ROLE_NICENESS = 10;

export interface SupervisedRoleOptions {
  /** 'projections' or 'workers', for the logs. */
  name: string;
  /** The role's main module (`projections/dist/main.js`, or its `.ts` under `npm run dev`). */
  entry: string;
  env: NodeJS.ProcessEnv;
  /** V8's old-space limit of the child (`--max-old-space-size`), MB. */
  heapMb: number;
  /** Niceness given to every thread of the child (default HEAVY_ROLE_NICENESS). */
  niceness?: number;
  logger: Logger;
  /** First restart delay (default 1 s), doubled after each crash up to `maxRestartDelayMs`. */
  restartDelayMs?: number;
  /** Longest restart delay (default 30 s). */
  maxRestartDelayMs?: number;
}

export interface SupervisedRole {
  readonly name: string;
  /** The running child's pid (undefined between a crash and its restart). */
  readonly pid: number | undefined;
  /** How many times the child was started again after it ended on its own. */
  readonly restarts: number;
  /** Resolves when the first child runs its role; rejects if it ends before (its stderr says why). */
  readonly ready: Promise<void>;
  /** SIGTERM to the child (SIGKILL after `graceMs`), no restart. Never throws. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Lowers the priority of every thread of `pid`. On Linux a niceness belongs
 * to a thread, not to the process: `setPriority(pid)` alone would leave V8's
 * and libuv's threads already started (GC, I/O) at the API's priority. Threads
 * started afterwards inherit the niceness of the thread that starts them.
 */
function lowerPriority(pid: number, niceness: number): void {
  let threads: number[] = [pid];
  try {
    threads = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    // No /proc (macOS): the process's own priority only.
  }
  for (const thread of threads) setPriority(thread, niceness);
}

/** Node's flags of this process (tsx's loader under `npm run dev`), without a heap limit of its own. */
function inheritedExecArgv(): string[] {
  return process.execArgv.filter((flag) => !flag.startsWith('--max-old-space-size'));
}

export function superviseRole(options: SupervisedRoleOptions): SupervisedRole {
  const { name, entry, env, heapMb, logger } = options;
  const niceness = options.niceness ?? HEAVY_ROLE_NICENESS;
  const firstDelayMs = options.restartDelayMs ?? 1_000;
  const maxDelayMs = options.maxRestartDelayMs ?? 30_000;
  const log = logger.child({ role: name });

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let delayMs = firstDelayMs;
  let restartTimer: NodeJS.Timeout | undefined;
  let markReady: (() => void) | undefined;
  let failStart: ((error: Error) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failStart = reject;
  });
  // The caller may stop before awaiting it.
  ready.catch(() => undefined);
  let everReady = false;

  const prioritise = (pid: number) => {
    try {
      lowerPriority(pid, niceness);
    } catch (error) {
      log.warn({ err: error, pid }, 'priorité du rôle inchangée');
    }
  };

  const start = () => {
    const started = Date.now();
    const current = fork(entry, [], {
      env: { ...RETURN_FREED_MEMORY, ...env },
      execArgv: [...inheritedExecArgv(), `--max-old-space-size=${heapMb}`],
      // Logs go straight to the launcher's terminal (readable there as the API's are).
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = current;
    current.once('spawn', () => prioritise(current.pid!));
    current.on('message', (message: { type?: string }) => {
      if (message?.type !== 'role-ready') return;
      // Again: the threads the child started since its spawn.
      prioritise(current.pid!);
      log.info({ pid: current.pid, heapMb, niceness }, 'rôle démarré dans son propre processus');
      everReady = true;
      markReady?.();
    });
    current.once('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return;
      if (!everReady) {
        failStart?.(new Error(`le rôle ${name} s’est arrêté au démarrage (code ${code ?? signal})`));
        return;
      }
      // A child that ran a while crashed once; one that dies at once again waits longer each time.
      if (Date.now() - started > 60_000) delayMs = firstDelayMs;
      log.error({ code, signal, restartInMs: delayMs }, 'rôle arrêté : redémarrage');
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (stopping) return;
        restarts++;
        start();
      }, delayMs);
      delayMs = Math.min(maxDelayMs, delayMs * 2);
    });
  };
  start();

  return {
    name,
    get pid() {
      return child?.pid;
    },
    get restarts() {
      return restarts;
    },
    ready,
    async stop(graceMs = 15_000) {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      current.kill('SIGTERM');
      const killer = setTimeout(() => current.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(killer);
    },
  };
}
