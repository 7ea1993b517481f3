/*
 * Writes docs/report-default.pdf and page 1 as docs/report-default.png: with
 * poppler's pdftoppm when installed (`apt-get install poppler-utils`; it draws
 * the standard fonts as a PDF reader does), else Chromium's PDF viewer
 * screenshotted with playwright-core (its font substitution squeezes spaces).
 *   node --conditions=source --import tsx workers/test/support/render-sample-report.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { renderReportPdf } from '../../src/reports/pdf-render.js';
import { sampleReportFacts } from './report-fixture.js';

const docs = fileURLToPath(new URL('../../../docs/', import.meta.url));
const { pdf } = await renderReportPdf({ facts: sampleReportFacts(), templateHtml: null });
await writeFile(`${docs}report-default.pdf`, pdf);
process.stdout.write(`docs/report-default.pdf (${pdf.length} bytes)\n`);

const pdftoppm = ['/usr/bin/pdftoppm', '/usr/local/bin/pdftoppm'].find((path) => existsSync(path));
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => existsSync(path));
if (pdftoppm) {
  // 110 dpi: an A4 page 910 px wide, readable in the docs without zooming.
  execFileSync(pdftoppm, ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', `${docs}report-default.pdf`, `${docs}report-default`]);
  process.stdout.write('docs/report-default.png (pdftoppm)\n');
} else if (!chromium) {
  process.stdout.write('no Chromium: PNG skipped\n');
} else {
  const { chromium: launcher } = await import('playwright-core');
  const browser = await launcher.launch({ executablePath: chromium, args: ['--no-sandbox'] });
  try {
    // 794 x 1123 CSS px is A4 at 96 dpi; the viewer fits the page width.
    const page = await browser.newPage({ viewport: { width: 900, height: 1230 }, deviceScaleFactor: 1.5 });
    await page.goto(`file://${docs}report-default.pdf#toolbar=0&navpanes=0&view=FitH`);
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `${docs}report-default.png` });
    process.stdout.write('docs/report-default.png\n');
  } finally {
    await browser.close();
  }
}
