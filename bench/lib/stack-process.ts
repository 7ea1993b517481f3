import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StackMessage, StackRequest, Timing } from '../stack.js';

export interface Collected {
  peakRssMb: number;
  rssMb: number;
  timings: Timing[];
  errors: string[];
  /** CPU time (ms, every thread of the stack) since the last mark. */
  cpuMs: number;
}

/** The one-process stack (bench/stack.ts) in a child process, driven over IPC. */
export class StackProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly startupRssMb: number,
  ) {}

  static async start(env: Record<string, string>): Promise<StackProcess> {
    const child = fork(fileURLToPath(new URL('../stack.ts', import.meta.url)), [], {
      execArgv: ['--conditions=source', '--import', 'tsx', ...(process.env.BENCH_STACK_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_STACK_PROFILE}`] : [])],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<Extract<StackMessage, { type: 'ready' }>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('la pile ne démarre pas (120 s)')), 120_000);
      child.once('exit', (code) => reject(new Error(`la pile s'est arrêtée au démarrage (${code})`)));
      child.on('message', (message: StackMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(message);
        }
      });
    });
    return new StackProcess(child, ready.url, ready.startupRssMb);
  }

  private request(message: StackRequest): void {
    this.child.send(message);
  }

  /** Starts a measurement window: peak RSS and server timings are reset. */
  mark(): void {
    this.request({ type: 'mark' });
  }

  collect(): Promise<Collected> {
    return new Promise((resolve) => {
      const onMessage = (message: StackMessage) => {
        if (message.type !== 'collected') return;
        this.child.off('message', onMessage);
        resolve(message);
      };
      this.child.on('message', onMessage);
      this.request({ type: 'collect' });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.request({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
