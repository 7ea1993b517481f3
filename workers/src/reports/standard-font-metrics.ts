import { createRequire } from 'node:module';

/*
 * pdfkit builds a new AFMFont for every standard font of every document: it
 * reads the font's .afm file and parses its ~3,000 lines with regular
 * expressions: a third of the CPU time of a one-page report. The metrics of
 * the 14 standard fonts never change, so each is parsed once per thread:
 * `AFMFont.prototype.parse` is memoized on the file's contents, and every
 * later font object shares the parsed tables, which pdfkit only reads.
 *
 * Kerning is looked up for every pair of glyphs measured or drawn, by a key
 * built by string concatenation ('A\0V') in an object of ~2,700 pairs. The
 * memoized metrics also hold the same pairs as a map of maps, which
 * `getKernPair` reads without building a string: same numbers, fewer
 * allocations.
 *
 * pdfkit does not export AFMFont: it is reached through the default font of
 * a throw-away document, built from the very pdfkit that pdfmake loads. If a
 * pdfkit upgrade moves it, nothing is patched and fonts are parsed as before
 * (slower, same PDF); the test beside this file fails to say so.
 */

const KERNING = Symbol('kerning by left glyph');

interface AfmMetrics {
  attributes: Record<string, unknown>;
  glyphWidths: Record<string, number>;
  boundingBoxes: Record<string, unknown>;
  kernPairs: Record<string, number>;
  [KERNING]?: Map<string, Map<string, number>>;
}

interface AfmFontPrototype {
  parse(this: AfmMetrics, contents: string): void;
  getKernPair(this: AfmMetrics, left: string, right: string | undefined): number;
}

/** The standard fonts pdfkit knows; more entries would mean a key that is not a font file. */
const MAX_FONTS = 14;

let installed: boolean | undefined;

function afmFontPrototype(): AfmFontPrototype | null {
  const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake'));
  const PDFDocument = requireFromPdfmake('pdfkit') as new (options: object) => { _font?: { font?: object } };
  const font = new PDFDocument({ autoFirstPage: false, font: 'Helvetica' })._font?.font;
  const prototype = font ? (Object.getPrototypeOf(font) as Partial<AfmFontPrototype>) : undefined;
  return typeof prototype?.parse === 'function' && typeof prototype.getKernPair === 'function' ? (prototype as AfmFontPrototype) : null;
}

/** pdfkit's 'left\0right' keys, as left -> right -> amount. */
function kerningByLeft(kernPairs: Record<string, number>): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  for (const [key, amount] of Object.entries(kernPairs)) {
    const [left, right] = key.split('\0') as [string, string];
    let byRight = table.get(left);
    if (!byRight) table.set(left, (byRight = new Map()));
    byRight.set(right, amount);
  }
  return table;
}

function memoizedParse(parse: AfmFontPrototype['parse']): AfmFontPrototype['parse'] {
  const parsed = new Map<string, AfmMetrics>();
  return function parseOnce(contents) {
    const known = parsed.get(contents);
    if (known) {
      Object.assign(this, known);
      return;
    }
    parse.call(this, contents);
    if (parsed.size >= MAX_FONTS) return;
    const { attributes, glyphWidths, boundingBoxes, kernPairs } = this;
    this[KERNING] = kerningByLeft(kernPairs);
    parsed.set(contents, { attributes, glyphWidths, boundingBoxes, kernPairs, [KERNING]: this[KERNING] });
  };
}

function tableKernPair(getKernPair: AfmFontPrototype['getKernPair']): AfmFontPrototype['getKernPair'] {
  return function kernPair(left, right) {
    const table = this[KERNING];
    if (!table) return getKernPair.call(this, left, right);
    return (right === undefined ? undefined : table.get(left)?.get(right)) ?? 0;
  };
}

/** Idempotent; returns whether the cache is in place. */
export function cacheStandardFontMetrics(): boolean {
  if (installed !== undefined) return installed;
  const prototype = afmFontPrototype();
  if (prototype) {
    prototype.parse = memoizedParse(prototype.parse);
    prototype.getKernPair = tableKernPair(prototype.getKernPair);
  }
  installed = prototype !== null;
  return installed;
}
