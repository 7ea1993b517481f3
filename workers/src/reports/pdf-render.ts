import { renderPdf } from '../pdf/pdf-fonts.js';
import { defaultReportContent, reportDocument } from './default-report.js';
import { htmlTemplateContent } from './html-report.js';
import type { RenderInput } from './report-facts.js';

/*
 * pdfmake 0.3 through the one PDF door (`renderPdf`, ../pdf/pdf-fonts.ts):
 * DejaVu Sans embedded and subsetted, characters it lacks printed as a
 * placeholder, no URL fetched and no local file opened; images come in the
 * `images` dictionary or as data URLs, which need no policy.
 */

let sharedWindow: unknown;

/** jsdom is loaded on the first agency template: it would add ~0.5 s to every render thread's start for reports that never need it. */
async function domWindow(): Promise<unknown> {
  if (sharedWindow === undefined) {
    const { JSDOM } = await import('jsdom');
    sharedWindow = new JSDOM('').window;
  }
  return sharedWindow;
}

export interface RenderedReport {
  pdf: Buffer;
  /** Set when the agency template could not be rendered and the built-in layout was used. */
  templateFallback: string | null;
}

/** Renders one report; CPU-bound (tens to hundreds of ms): call it off the main event loop. */
export async function renderReportPdf(input: RenderInput): Promise<RenderedReport> {
  if (input.templateHtml !== null) {
    // Outside the try: jsdom failing to load is a broken install, not an unreadable template.
    const window = await domWindow();
    try {
      const content = htmlTemplateContent(input.templateHtml, input.facts, window);
      return { pdf: await renderPdf(reportDocument(input.facts, content)), templateFallback: null };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const pdf = await renderPdf(reportDocument(input.facts, defaultReportContent(input.facts)));
      return { pdf, templateFallback: `Modèle de l’agence illisible (${reason.slice(0, 300)}) : mise en page par défaut utilisée.` };
    }
  }
  return { pdf: await renderPdf(reportDocument(input.facts, defaultReportContent(input.facts))), templateFallback: null };
}
