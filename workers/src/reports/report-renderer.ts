import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RenderInput } from './report-facts.js';
import type { RenderedReport } from './pdf-render.js';

/** Turns report facts into PDF bytes. */
export interface ReportRenderer {
  render(input: RenderInput): Promise<RenderedReport>;
  close(): Promise<void>;
}

export interface ThreadRendererOptions {
  /** A render taking longer is abandoned and its thread replaced (a pathological template must not wedge the queue). */
  timeoutMs?: number;
}

interface Pending {
  resolve: (rendered: RenderedReport) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

type ThreadMessage = { ready: true } | { id: number; ok: true; pdf: Uint8Array; templateFallback: string | null } | { id: number; ok: false; error: string };

/**
 * The thread's entry: the compiled `render-thread.js` in production; from
 * TypeScript sources (tests, `npm run dev`) the thread first registers tsx's
 * loader, since worker threads do not inherit `--import`.
 */
function startThread(): Worker {
  const fromSources = import.meta.url.endsWith('.ts');
  const entry = new URL(`./render-thread.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return new Worker(entry);
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * pdfmake blocks its event loop for tens to hundreds of milliseconds a
 * document: it runs in one worker thread, started on first use and replaced
 * when it dies or overruns. Renders are queued one at a time.
 */
export function createThreadRenderer(options: ThreadRendererOptions = {}): ReportRenderer {
  const timeoutMs = options.timeoutMs ?? 60_000;
  let thread: Worker | undefined;
  let ready: Promise<Worker> | undefined;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  const failAll = (error: Error) => {
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer);
      pending.delete(id);
      entry.reject(error);
    }
  };

  const discard = async (current: Worker) => {
    if (thread !== current) return;
    thread = undefined;
    ready = undefined;
    await current.terminate().catch(() => undefined);
  };

  const ensure = (): Promise<Worker> => {
    if (ready) return ready;
    const current = startThread();
    thread = current;
    current.unref();
    ready = new Promise<Worker>((resolve, reject) => {
      current.on('message', (message: ThreadMessage) => {
        if ('ready' in message) return resolve(current);
        const entry = pending.get(message.id);
        if (!entry) return;
        pending.delete(message.id);
        clearTimeout(entry.timer);
        if (message.ok) entry.resolve({ pdf: Buffer.from(message.pdf.buffer, message.pdf.byteOffset, message.pdf.byteLength), templateFallback: message.templateFallback });
        else entry.reject(new Error(message.error));
      });
      const onGone = (error: Error) => {
        reject(error);
        failAll(error);
        void discard(current);
      };
      current.on('error', onGone);
      current.on('exit', (code) => onGone(new Error(`render thread exited (${code})`)));
    });
    return ready;
  };

  const renderOne = async (input: RenderInput): Promise<RenderedReport> => {
    if (closed) throw new Error('renderer closed');
    const current = await ensure();
    const id = nextId++;
    return new Promise<RenderedReport>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`rendu du rapport interrompu après ${timeoutMs} ms`));
        void discard(current);
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer });
      current.postMessage({ id, input });
    });
  };

  return {
    render(input) {
      const result = chain.then(() => renderOne(input));
      chain = result.catch(() => undefined);
      return result;
    },
    async close() {
      closed = true;
      failAll(new Error('renderer closed'));
      if (thread) await discard(thread);
    },
  };
}

/** Renders on the calling thread: for tools and tests that measure the layout itself. */
export async function createInProcessRenderer(): Promise<ReportRenderer> {
  const { renderReportPdf } = await import('./pdf-render.js');
  return { render: renderReportPdf, close: async () => undefined };
}
