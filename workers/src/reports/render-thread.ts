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
