import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderReportPdf } from './pdf-render.js';
import type { RenderInput } from './report-facts.js';

/** Entry of the render thread: one request at a time, answered by id. */
interface RenderRequest {
  id: number;
  input: RenderInput;
}

const port = parentPort;
if (!port) throw new Error('render-thread must run in a worker thread');

/*
 * Issue 28, item 3: a render yields the CPU to requests, also where the
 * workers share the API's process (the tests' and the bench's stacks). On
 * Linux a niceness belongs to a thread, and pid 0 names the calling thread:
 * this lowers this render thread only (never raising what it inherited).
 * Elsewhere pid 0 is the whole process, the API with it: left as is there.
 */
const RENDER_THREAD_NICENESS = 10;
if (process.platform === 'linux') {
  try {
    setPriority(0, Math.max(RENDER_THREAD_NICENESS, getPriority(0)));
  } catch {
    // Not allowed here: render at the process's priority.
  }
}

port.on('message', (request: RenderRequest) => {
  renderReportPdf(request.input).then(
    (rendered) => {
      const pdf = new Uint8Array(rendered.pdf.buffer, rendered.pdf.byteOffset, rendered.pdf.byteLength);
      port.postMessage({ id: request.id, ok: true, pdf, templateFallback: rendered.templateFallback });
    },
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
});
port.postMessage({ ready: true });
