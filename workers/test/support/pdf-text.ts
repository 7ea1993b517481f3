import { inflateSync } from 'node:zlib';

/*
 * Reads the text back from a PDF written by pdfmake/pdfkit with the standard
 * fonts, without poppler (not installed here): inflate every content stream,
 * take each BT…ET block's position (Tm) and its TJ/Tj strings (WinAnsi
 * encoded), and join the pieces line by line, top to bottom. Enough to assert
 * what a report prints; not a general PDF parser.
 */

const WIN_ANSI_HIGH: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ',
  0x8e: 'Ž', 0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›',
  0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

function decodeWinAnsi(bytes: number[]): string {
  return bytes.map((byte) => WIN_ANSI_HIGH[byte] ?? String.fromCharCode(byte)).join('');
}

function hexBytes(hex: string): number[] {
  const clean = hex.replace(/\s+/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < clean.length; i += 2) bytes.push(parseInt(clean.slice(i, i + 2).padEnd(2, '0'), 16));
  return bytes;
}

function literalBytes(literal: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < literal.length; i++) {
    const char = literal[i]!;
    if (char !== '\\') {
      bytes.push(char.charCodeAt(0) & 0xff);
      continue;
    }
    const next = literal[++i] ?? '';
    const octal = /^[0-7]{1,3}/.exec(literal.slice(i));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += octal[0].length - 1;
    } else bytes.push(({ n: 10, r: 13, t: 9, b: 8, f: 12 } as Record<string, number>)[next] ?? next.charCodeAt(0));
  }
  return bytes;
}

function contentStreams(pdf: Buffer): string[] {
  const source = pdf.toString('latin1');
  const streams: string[] = [];
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) continue;
    const raw = pdf.subarray(start, end);
    try {
      streams.push(inflateSync(raw).toString('latin1'));
    } catch {
      streams.push(raw.toString('latin1'));
    }
  }
  return streams;
}

interface PdfTextPiece {
  x: number;
  y: number;
  size: number;
  text: string;
}

function pdfTextPieces(pdf: Buffer): PdfTextPiece[][] {
  return contentStreams(pdf)
    .filter((stream) => /\bBT\b/.test(stream))
    .map((stream) => {
      const pieces: PdfTextPiece[] = [];
      for (const block of stream.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
        const body = block[1]!;
        const tm = /([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+Tm/.exec(body);
        const x = tm ? Number(tm[5]) : 0;
        const y = tm ? Number(tm[6]) : 0;
        const size = Number(/([\d.]+)\s+Tf/.exec(body)?.[1] ?? 10);
        let text = '';
        for (const op of body.matchAll(/\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:[^()\\]|\\.)*\))\s*Tj/g)) {
          const operands = op[1] ?? op[2] ?? '';
          for (const string of operands.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:[^()\\]|\\.)*)\)/g)) {
            text += decodeWinAnsi(string[1] !== undefined ? hexBytes(string[1]) : literalBytes(string[2] ?? ''));
          }
        }
        if (text !== '') pieces.push({ x, y, size, text });
      }
      return pieces;
    })
    .filter((page) => page.length > 0);
}

/** The text of every page, one line per baseline, top to bottom; pages separated by a form feed. */
export function pdfText(pdf: Buffer): string {
  return pdfTextPieces(pdf)
    .map((pieces) => {
      const lines = new Map<number, PdfTextPiece[]>();
      for (const piece of pieces) {
        const key = Math.round(piece.y);
        lines.set(key, [...(lines.get(key) ?? []), piece]);
      }
      return [...lines.entries()]
        .sort(([a], [b]) => b - a)
        .map(([, line]) =>
          line
            .sort((a, b) => a.x - b.x)
            .reduce(
              (acc, piece) => {
                // Pieces are words; a gap wider than a space (by a rough Helvetica width) is a column gap.
                const glued = acc.text === '' || /\s$/.test(acc.text) || piece.x - acc.end < piece.size * 0.2;
                return { text: glued ? acc.text + piece.text : `${acc.text} ${piece.text}`, end: piece.x + piece.text.length * piece.size * 0.5 };
              },
              { text: '', end: 0 },
            ).text
            .replace(/\s+/g, ' ')
            .trim(),
        )
        .join('\n');
    })
    .join('\n\f\n');
}
