import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RenderInput } from './report-facts.js';
import type { RenderedReport } from './pdf-render.js';

export interface RenderOptions {
  /** Stops the render, waiting or running (its thread is terminated): a preview nobody waits for any more. */
  signal?: AbortSignal;
  /** A shorter budget than the renderer's for this render. */
  timeoutMs?: number;
}

/** Turns report facts into PDF bytes. */
export interface ReportRenderer {
  render(input: RenderInput, options?: RenderOptions): Promise<RenderedReport>;
  close(): Promise<void>;
}

export type RenderStopReason = 'timeout' | 'memory' | 'cancelled';

/** A render stopped by its budget or its caller: its thread was terminated, and the next render gets a new one. */
export class RenderStoppedError extends Error {
  constructor(
    readonly reason: RenderStopReason,
    /** What was exceeded, in French ('plus de 30 s de calcul'). */
    readonly limit: string,
  ) {
    super(reason === 'cancelled' ? 'Rendu annulé : plus personne ne l’attend.' : `Rendu interrompu : ${limit}.`);
    this.name = 'RenderStoppedError';
  }
}

/**
 * A report is 20 to 250 ms; a template that previews within the API's 20 s
 * renders as a report within this.
 */
export const RENDER_TIMEOUT_MS = 30_000;
/**
 * A report's layout needs 50 to 150 MB of heap; a 1 MB template of plain
 * table rows (a 250-page PDF) about 500 MB. Pixel buffers are outside the
 * heap: images are held by their own budget (report-facts.ts) instead.
 */
export const RENDER_HEAP_MB = 512;

export interface ThreadRendererOptions {
  /** Longest a render may run (default RENDER_TIMEOUT_MS); past it its thread is terminated and replaced. */
  timeoutMs?: number;
  /** Heap of each render thread (default RENDER_HEAP_MB); past it V8 stops the thread, which is replaced. */
  maxHeapMb?: number;
  /** Renders that run at once, each in its own thread (default 1); more wait for a free thread, first come first served. */
  threads?: number;
  /** Told each time a thread is stopped in the middle of a render (for the logs). */
  onThreadStopped?: (event: { threadId: number; reason: RenderStopReason | 'crashed'; error: Error }) => void;
}

type ThreadMessage = { ready: true } | { id: number; ok: true; pdf: Uint8Array; templateFallback: string | null } | { id: number; ok: false; error: string };

/**
 * The thread's entry: the compiled `render-thread.js` in production; from
 * TypeScript sources (tests, `npm run dev`) the thread first registers tsx's
 * loader, since worker threads do not inherit `--import`.
 */
function startThread(maxHeapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: maxHeapMb };
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(`./render-thread.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(entry, { resourceLimits });
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits });
}

const duration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

interface Running {
  id: number;
  resolve: (rendered: RenderedReport) => void;
  reject: (error: Error) => void;
}

/**
 * One render thread, one render at a time. pdfmake cannot be interrupted
 * from outside: a render is stopped by terminating its thread, which frees
 * all it held; the next render starts a new one.
 */
class RenderThread {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private running: Running | undefined;
  private nextId = 1;

  constructor(
    private readonly maxHeapMb: number,
    private readonly onStopped: ThreadRendererOptions['onThreadStopped'],
  ) {}

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    const worker = startThread(this.maxHeapMb);
    // -1 once the thread has gone, which the exit handler still needs to report.
    const { threadId } = worker;
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (message: ThreadMessage) => {
        if ('ready' in message) return resolve(worker);
        const running = this.running;
        if (!running || running.id !== message.id) return;
        this.running = undefined;
        if (message.ok) running.resolve({ pdf: Buffer.from(message.pdf.buffer, message.pdf.byteOffset, message.pdf.byteLength), templateFallback: message.templateFallback });
        else running.reject(new Error(message.error));
      });
      // The thread died on its own: out of heap (V8 stops it), or a crash.
      let failure: Error | undefined;
      worker.on('error', (error) => (failure ??= error));
      worker.on('exit', (code) => {
        const outOfMemory = (failure as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        const error = outOfMemory ? new RenderStoppedError('memory', `plus de ${this.maxHeapMb} Mo de mémoire`) : new Error(`Le moteur de rendu s’est arrêté (${failure?.message ?? `code ${code}`}).`);
        // Gone before it was ready: the render waiting for it must not wait forever (a no-op once ready).
        reject(error);
        if (this.worker !== worker) return; // stopped by us: its render is already answered
        this.worker = undefined;
        this.ready = undefined;
        const running = this.running;
        this.running = undefined;
        if (running) {
          this.onStopped?.({ threadId, reason: outOfMemory ? 'memory' : 'crashed', error });
          running.reject(error);
        }
      });
    });
    return this.ready;
  }

  /** Terminates the thread now, answering its render with `error`. */
  stop(error: Error): Promise<void> {
    const worker = this.worker;
    const running = this.running;
    this.worker = undefined;
    this.ready = undefined;
    this.running = undefined;
    if (!worker) return Promise.resolve();
    if (running) {
      if (error instanceof RenderStoppedError) this.onStopped?.({ threadId: worker.threadId, reason: error.reason, error });
      running.reject(error);
    }
    return worker.terminate().then(
      () => undefined,
      () => undefined,
    );
  }

  async run(input: RenderInput, timeoutMs: number, signal: AbortSignal | undefined): Promise<RenderedReport> {
    const worker = await this.start();
    if (signal?.aborted) throw new RenderStoppedError('cancelled', '');
    const id = this.nextId++;
    return new Promise<RenderedReport>((resolve, reject) => {
      const onAbort = () => void this.stop(new RenderStoppedError('cancelled', ''));
      const timer = setTimeout(() => void this.stop(new RenderStoppedError('timeout', `plus de ${duration(timeoutMs)} de calcul`)), timeoutMs);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.running = {
        id,
        resolve: (rendered) => {
          done();
          resolve(rendered);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ id, input });
    });
  }
}

/**
 * pdfmake blocks its event loop for tens to hundreds of milliseconds a
 * document, more for a heavy template: renders run in worker threads, each
 * bounded in time and heap, started on first use and replaced when one is
 * stopped. A renderer's threads serve only its own callers: reports and
 * template previews each have their own renderer, so previews never delay a
 * report.
 */
export function createThreadRenderer(options: ThreadRendererOptions = {}): ReportRenderer {
  const timeoutMs = options.timeoutMs ?? RENDER_TIMEOUT_MS;
  const threads = Array.from({ length: Math.max(1, options.threads ?? 1) }, () => new RenderThread(options.maxHeapMb ?? RENDER_HEAP_MB, options.onThreadStopped));
  const idle = [...threads];
  const waiting: { take: (thread: RenderThread) => void; fail: (error: Error) => void }[] = [];
  let closed = false;

  const acquire = (signal: AbortSignal | undefined): Promise<RenderThread> => {
    const free = idle.pop();
    if (free) return Promise.resolve(free);
    return new Promise<RenderThread>((resolve, reject) => {
      const entry = {
        take: (thread: RenderThread) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(thread);
        },
        fail: (error: Error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      const onAbort = () => {
        waiting.splice(waiting.indexOf(entry), 1);
        entry.fail(new RenderStoppedError('cancelled', ''));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiting.push(entry);
    });
  };

  const release = (thread: RenderThread) => {
    const next = waiting.shift();
    if (next) next.take(thread);
    else idle.push(thread);
  };

  return {
    async render(input, renderOptions = {}) {
      if (closed) throw new Error('Moteur de rendu arrêté.');
      const { signal } = renderOptions;
      if (signal?.aborted) throw new RenderStoppedError('cancelled', '');
      const thread = await acquire(signal);
      try {
        return await thread.run(input, Math.min(timeoutMs, renderOptions.timeoutMs ?? timeoutMs), signal);
      } finally {
        release(thread);
      }
    },
    async close() {
      closed = true;
      const error = new Error('Moteur de rendu arrêté.');
      for (const entry of waiting.splice(0)) entry.fail(error);
      await Promise.all(threads.map((thread) => thread.stop(error)));
    },
  };
}

/** Renders on the calling thread, without limits: for tools and tests that measure the layout itself. */
export async function createInProcessRenderer(): Promise<ReportRenderer> {
  const { renderReportPdf } = await import('./pdf-render.js');
  return { render: (input) => renderReportPdf(input), close: async () => undefined };
}
