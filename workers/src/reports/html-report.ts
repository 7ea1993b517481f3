import htmlToPdfmake from 'html-to-pdfmake';
import type { Content } from 'pdfmake/interfaces.js';
import { signatureBlock } from './default-report.js';
import { IMAGE_TOO_LARGE_TEXT, REPORT_IMAGE_KEYS, isEmbeddableImage, reportImageUse, type ReportFacts } from './report-facts.js';

/*
 * An agency template (the builder's rich-text HTML, variables already filled)
 * to pdfmake content: headings, bold/italic, lists, tables and images come
 * from html-to-pdfmake over a jsdom window. Then one pass over the tree:
 * - images: only the report's own (photo, signatures) and inline PNG/JPEG
 *   data URLs are kept; anything that would make pdfkit read a file or fetch a
 *   URL is dropped, and every image is fitted to the page; one over the
 *   pixel budget is replaced by a line of text, never decoded;
 * - each signature image gets its evidence beside it (signer, role, date and
 *   time), whatever the template put around it.
 */

const DATA_IMAGE = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/]+=*)$/i;
const PAGE_WIDTH = 515;

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function htmlTemplateContent(html: string, facts: ReportFacts, window: unknown): Content[] {
  const converted = htmlToPdfmake(html, { window, tableAutoSize: true, removeExtraBlanks: true });
  const available = new Set<string>();
  if (isEmbeddableImage(facts.photo)) available.add(REPORT_IMAGE_KEYS.photo);
  if (isEmbeddableImage(facts.signatures.client.image)) available.add(REPORT_IMAGE_KEYS.signatureClient);
  if (isEmbeddableImage(facts.signatures.technicien.image)) available.add(REPORT_IMAGE_KEYS.signatureTechnicien);

  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!isNode(value)) return value;
    if (typeof value.image === 'string') return image(value);
    const copy: Node = { ...value };
    for (const key of ['stack', 'text', 'ul', 'ol', 'columns'] as const) if (key in copy) copy[key] = visit(copy[key]);
    if (isNode(copy.table) && Array.isArray(copy.table.body)) copy.table = { ...copy.table, body: copy.table.body.map(visit) };
    return copy;
  };

  const image = (node: Node): Content => {
    const src = node.image as string;
    if (src === REPORT_IMAGE_KEYS.signatureClient) return signatureBlock('Signature du client', facts.signatures.client, src);
    if (src === REPORT_IMAGE_KEYS.signatureTechnicien) return signatureBlock('Signature du technicien', facts.signatures.technicien, src);
    const inline = DATA_IMAGE.exec(src);
    const bytes = inline ? Buffer.from(inline[2]!, 'base64') : src === REPORT_IMAGE_KEYS.photo ? facts.photo : null;
    if (reportImageUse(bytes) === 'too-large') return { text: IMAGE_TOO_LARGE_TEXT, style: 'muted' };
    const allowed = available.has(src) || inline !== null;
    if (!allowed) return { text: '' };
    const { width, height, fit, ...rest } = node;
    const maxWidth = typeof width === 'number' ? Math.min(width, PAGE_WIDTH) : PAGE_WIDTH;
    const maxHeight = typeof height === 'number' ? Math.min(height, 700) : src === REPORT_IMAGE_KEYS.photo ? 260 : 400;
    return { ...rest, image: src, fit: Array.isArray(fit) ? fit : [maxWidth, maxHeight] } as Content;
  };

  const result = visit(converted);
  return (Array.isArray(result) ? result : [result]) as Content[];
}
