import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheStandardFontMetrics } from './standard-font-metrics.js';

interface StandardFont {
  widthOfString(text: string, size: number): number;
  font: { getKernPair(left: string, right: string | undefined): number; glyphWidths: Record<string, number> };
}

const requireFromPdfmake = createRequire(createRequire(import.meta.url).resolve('pdfmake'));
const PDFDocument = requireFromPdfmake('pdfkit') as new (options: object) => { font(name: string): { _font: StandardFont } };
const fontNamed = (name: string): StandardFont => new PDFDocument({ autoFirstPage: false }).font(name)._font;

/** Widths and kerning pairs of an AFM file, read here without pdfkit's parser. */
function afmMetrics(fontName: string): { widths: Map<string, number>; pairs: [string, string, number][] } {
  const afm = readFileSync(join(dirname(requireFromPdfmake.resolve('pdfkit')), 'data', `${fontName}.afm`), 'utf8');
  const widths = new Map([...afm.matchAll(/^C\s+-?\d+\s*;\s*WX\s+(\d+)\s*;\s*N\s+(\S+)\s*;/gm)].map((match) => [match[2]!, Number(match[1])]));
  const pairs = [...afm.matchAll(/^KPX\s+(\S+)\s+(\S+)\s+(-?\d+)/gm)].map((match): [string, string, number] => [match[1]!, match[2]!, Number(match[3])]);
  return { widths, pairs };
}

/** Width of a string of letters (glyph name = the letter), by the book: advance widths plus kerning. */
function expectedWidth(text: string, size: number, metrics: ReturnType<typeof afmMetrics>): number {
  const kerning = new Map(metrics.pairs.map(([left, right, amount]) => [`${left} ${right}`, amount]));
  let units = 0;
  for (let i = 0; i < text.length; i++) units += metrics.widths.get(text[i]!)! + (kerning.get(`${text[i]} ${text[i + 1]}`) ?? 0);
  return (units / 1000) * size;
}

describe('standard font metrics, parsed once per thread', () => {
  it('is in place with the installed pdfkit (false would mean an upgrade moved AFMFont: rendering works, slower)', () => {
    expect(cacheStandardFontMetrics()).toBe(true);
  });

  it.each(['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique'])('gives %s the kerning and widths of its AFM file', (name) => {
    cacheStandardFontMetrics();
    const first = fontNamed(name);
    // The second document's font is the one served from the cache.
    const second = fontNamed(name);
    expect(second.font.glyphWidths).toBe(first.font.glyphWidths);
    const metrics = afmMetrics(name);
    expect(metrics.pairs.length).toBeGreaterThan(1000);
    for (const [left, right, amount] of metrics.pairs) expect(second.font.getKernPair(left, right)).toBe(amount);
    expect(second.font.getKernPair('A', 'B')).toBe(0);
    expect(second.font.getKernPair('V', undefined)).toBe(0);
    // AV, VA, AT, TA, To, Wa, av are kerned in Helvetica.
    const text = 'AVATARToutWavey';
    expect(second.widthOfString(text, 12)).toBeCloseTo(expectedWidth(text, 12, metrics), 9);
  });
});
