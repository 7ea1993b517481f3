import { inflateSync } from 'node:zlib';

/**
 * Rough text of a PDF made by pdfmake/pdfkit with standard fonts: inflates
 * every stream and joins the strings shown by Tj/TJ (hex or literal, WinAnsi
 * ≈ latin1). Enough to find a ticket number or a sentence; not a PDF parser.
 */
export function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const parts: string[] = [];
  const streamRe = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streamRe.exec(source))) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(raw).toString('latin1');
    } catch {
      content = raw.toString('latin1');
    }
    for (const op of content.matchAll(/\[((?:[^\]\\]|\\.)*)\]\s*TJ|(<[0-9a-fA-F\s]*>|\((?:[^)\\]|\\.)*\))\s*Tj/g)) {
      const operand = op[1] ?? op[2] ?? '';
      let text = '';
      for (const piece of operand.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:[^)\\]|\\.)*)\)/g)) {
        if (piece[1] !== undefined) text += Buffer.from(piece[1].replace(/\s+/g, ''), 'hex').toString('latin1');
        else text += unescapeLiteral(piece[2] ?? '');
      }
      parts.push(text);
    }
    // Past the keyword: 'endstream\n' itself ends in 'stream\n', which would
    // otherwise be taken for the next stream's start and make the walk skip one.
    streamRe.lastIndex = end + 'endstream'.length;
  }
  // WinAnsi's typographic quotes sit where latin1 has C1 controls.
  return parts.join(' ').replace(/\u0092/g, '’').replace(/\u0091/g, '‘').replace(/\u0093/g, '“').replace(/\u0094/g, '”');
}

function unescapeLiteral(text: string): string {
  return text.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, c: string) => {
    const map: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    return map[c] ?? String.fromCharCode(parseInt(c, 8));
  });
}
