import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pdfmake from 'pdfmake';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { cacheStandardFontMetrics } from '../reports/standard-font-metrics.js';

/*
 * The one font of every PDF the product writes (reports, the template
 * builder's preview, the registre and whatever comes next): DejaVu Sans
 * (package `dejavu-fonts-ttf`), embedded and subsetted by pdfkit (only the
 * glyphs used are written: a one-page report stays a few tens of kB). The
 * standard Helvetica only knows WinAnsi: 'kΩ', '≥', '→' came out as garbage
 * and swallowed the rest of the line (issue 32). DejaVu covers Latin
 * Extended, Greek, Cyrillic, math symbols, arrows, typographic quotes,
 * dashes and the narrow no-break space of French typography.
 *
 * What DejaVu lacks (emoji, CJK, most other scripts) is replaced before
 * rendering by PDF_PLACEHOLDER, one per character: visible, never garbage,
 * and the rest of the line prints. The set of code points the font covers is
 * built once per thread, from the four faces (a text may be bold or italic).
 *
 * Fonts reach pdfmake through its virtual file system, so its local-file
 * policy still refuses every path, and no URL is ever fetched.
 */

/** The family name documents use (`defaultStyle.font`). */
export const PDF_FONT_FAMILY = 'DejaVuSans';

/** Printed for a character the font has no glyph for: U+25A1 WHITE SQUARE, which DejaVu has. */
export const PDF_PLACEHOLDER = '\u25A1';

const FACES = {
  normal: 'DejaVuSansCondensed.ttf',
  bold: 'DejaVuSansCondensed-Bold.ttf',
  italics: 'DejaVuSansCondensed-Oblique.ttf',
  bolditalics: 'DejaVuSansCondensed-BoldOblique.ttf',
} as const;

interface FontkitFont {
  characterSet: number[];
}

let configured = false;
let covered: Set<number> | undefined;

function fontFile(name: string): string {
  return createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`);
}

/** Code points every face has a glyph for (fontkit, the parser pdfkit embeds fonts with). */
function coveredCodePoints(): Set<number> {
  if (covered) return covered;
  const requireFromPdfkit = createRequire(createRequire(createRequire(import.meta.url).resolve('pdfmake')).resolve('pdfkit'));
  const fontkit = requireFromPdfkit('fontkit') as { openSync(path: string): FontkitFont };
  const [first, ...others] = Object.values(FACES).map((file) => new Set(fontkit.openSync(fontFile(file)).characterSet));
  covered = new Set([...(first ?? [])].filter((codePoint) => others.every((face) => face.has(codePoint))));
  return covered;
}

/** Sets pdfmake up once per thread: the embedded fonts, and no file or URL access. */
function configurePdfFonts(): void {
  if (configured) return;
  // pdfmake's virtual file system (not in @types/pdfmake): the fonts never go through the local-file policy.
  const { virtualfs } = pdfmake as unknown as { virtualfs: { writeFileSync(name: string, content: Buffer): void } };
  for (const file of Object.values(FACES)) virtualfs.writeFileSync(file, readFileSync(fontFile(file)));
  pdfmake.setFonts({ [PDF_FONT_FAMILY]: { ...FACES } });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  coveredCodePoints();
  // pdfkit still opens Helvetica as every document's initial font: its metrics parsed once.
  cacheStandardFontMetrics();
  configured = true;
}

/** Variation selectors say "draw as emoji / as text": nothing to print on their own. */
const VARIATION_SELECTOR = /[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]/g;

/**
 * The text as the font can print it: composed (NFC: 'e' + combining accent
 * becomes 'é'), variation selectors dropped, and each character outside the
 * font replaced by PDF_PLACEHOLDER. Line breaks and tabs are kept.
 */
export function printableText(text: string): string {
  const set = coveredCodePoints();
  let out = '';
  let changed = false;
  const source = text.normalize('NFC').replace(VARIATION_SELECTOR, '');
  for (const char of source) {
    const codePoint = char.codePointAt(0)!;
    if (set.has(codePoint) || codePoint === 0x0a || codePoint === 0x0d || codePoint === 0x09) out += char;
    else {
      out += PDF_PLACEHOLDER;
      changed = true;
    }
  }
  return changed || source !== text ? out : text;
}

/** Keys of pdfmake nodes whose strings are printed (the rest are names: styles, image keys, colours). */
const TEXT_KEYS = new Set(['text', 'stack', 'columns', 'ul', 'ol', 'body', 'table', 'content', 'header', 'footer']);

/** Every printed string of a pdfmake tree through printableText; returns a copy, the input is left as it is. */
function printableContent<T>(node: T): T {
  if (typeof node === 'string') return printableText(node) as T;
  if (Array.isArray(node)) return node.map((item) => printableContent(item)) as T;
  if (typeof node === 'function') {
    const produce = node as unknown as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => printableContent(produce(...args))) as T;
  }
  if (typeof node !== 'object' || node === null) return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) copy[key] = TEXT_KEYS.has(key) ? printableContent(value) : value;
  return copy as T;
}

/**
 * The one door to a PDF: fonts set up, every printed string made printable,
 * DejaVu Sans as the default font. Documents name no other font.
 */
export async function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  configurePdfFonts();
  const printable: TDocumentDefinitions = {
    ...document,
    content: printableContent(document.content) as Content,
    ...(document.header === undefined ? {} : { header: printableContent(document.header) }),
    ...(document.footer === undefined ? {} : { footer: printableContent(document.footer) }),
    defaultStyle: { ...document.defaultStyle, font: PDF_FONT_FAMILY },
  };
  return pdfmake.createPdf(printable).getBuffer();
}
