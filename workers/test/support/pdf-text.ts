import { execFileSync } from 'node:child_process';

/*
 * Reads the text back from a PDF with poppler's `pdftotext` (poppler-utils;
 * `.ci/run` installs it): the reports embed DejaVu Sans, whose strings are
 * glyph ids, so only a real PDF reader decodes them, through the font's
 * ToUnicode map as a PDF viewer's copy-paste does. `-layout` keeps a label
 * and its value on one line; each line's blanks are collapsed to one space.
 */

const PDFTOTEXT = process.env.PDFTOTEXT ?? '/usr/bin/pdftotext';

/** The text of every page, one line per printed line, top to bottom, no blank lines; pages separated by a form feed. */
export function pdfText(pdf: Buffer | Uint8Array): string {
  const raw = execFileSync(PDFTOTEXT, ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
  return raw
    .replace(/\f$/, '')
    .split('\f')
    .map((page) =>
      page
        .split('\n')
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .filter((line) => line !== '')
        .join('\n'),
    )
    .join('\n\f\n');
}
