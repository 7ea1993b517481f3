import pdfmake from 'pdfmake';
import { defaultReportContent, reportDocument } from './default-report.js';
import { htmlTemplateContent } from './html-report.js';
import type { RenderInput } from './report-facts.js';
import { cacheStandardFontMetrics } from './standard-font-metrics.js';

/*
 * pdfmake 0.3 with the PDF standard fonts (Helvetica: nothing to embed, ~3x
 * faster than Roboto). Access policies: no URL is ever fetched, and the only
 * "local files" pdfmake may open are the standard font names; images come in
 * the `images` dictionary or as data URLs, which need no policy.
 */

const HELVETICA = {
  normal: 'Helvetica',
  bold: 'Helvetica-Bold',
  italics: 'Helvetica-Oblique',
  bolditalics: 'Helvetica-BoldOblique',
} as const;
const STANDARD_FONT_FILES = new Set<string>(Object.values(HELVETICA));

let configured = false;
let sharedWindow: unknown;

function configure(): void {
  if (configured) return;
  pdfmake.setFonts({ Helvetica: { ...HELVETICA } });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path: string) => STANDARD_FONT_FILES.has(path));
  cacheStandardFontMetrics();
  configured = true;
}

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
  configure();
  if (input.templateHtml !== null) {
    // Outside the try: jsdom failing to load is a broken install, not an unreadable template.
    const window = await domWindow();
    try {
      const content = htmlTemplateContent(input.templateHtml, input.facts, window);
      return { pdf: await pdfmake.createPdf(reportDocument(input.facts, content)).getBuffer(), templateFallback: null };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const pdf = await pdfmake.createPdf(reportDocument(input.facts, defaultReportContent(input.facts))).getBuffer();
      return { pdf, templateFallback: `Modèle de l’agence illisible (${reason.slice(0, 300)}) : mise en page par défaut utilisée.` };
    }
  }
  return { pdf: await pdfmake.createPdf(reportDocument(input.facts, defaultReportContent(input.facts))).getBuffer(), templateFallback: null };
}
