import htmlToPdfmake from 'html-to-pdfmake';
import type { Content } from 'pdfmake/interfaces.js';
import { lightGrid, reportHeader, signatureBlock } from './default-report.js';
import {
  IMAGE_TOO_LARGE_TEXT,
  REPORT_IMAGE_KEYS,
  TEMPLATE_VALUE_CLOSE,
  TEMPLATE_VALUE_OPEN,
  isEmbeddableImage,
  reportImageUse,
  type ReportFacts,
} from './report-facts.js';

/*
 * An agency template (the builder's rich-text HTML, variables already filled)
 * to pdfmake content: headings, bold/italic, lists, tables and images come
 * from html-to-pdfmake over a jsdom window. Then one pass over the tree:
 * - images: only the report's own (photo, signatures) and inline PNG/JPEG
 *   data URLs are kept; anything that would make pdfkit read a file or fetch a
 *   URL is dropped, and every image is fitted to the page; one over the
 *   pixel budget is replaced by a line of text, never decoded;
 * - each signature image gets its evidence under it (signer, role, date and
 *   time), whatever the template put around it; the template's own heading
 *   names the signature (no second title);
 * - tables without widths of their own share one grid: a label column of one
 *   width (so the tables of a report line up) and the rest of the page; rows
 *   never split across pages; a row whose every value cell came out empty (a
 *   variable with nothing to print: no phone, no contact, no photo) is left
 *   out rather than printed as a label with nothing beside it.
 * The letterhead (agency name, address and phone, the report's reference) is
 * the built-in layout's, above every template: a report always says who sends
 * it and which visit it is about, whatever the template was given.
 */

const DATA_IMAGE = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/]+=*)$/i;
const PAGE_WIDTH = 515;
/** The label column of two-column tables (`<th>` label, `<td>` value). */
const LABEL_WIDTH = 140;
const LABEL_FILL = '#f4f5f7';

/**
 * Restrained sizes for the editor's markup, against html-to-pdfmake's
 * defaults (h1 24 pt, h2 22 pt...) that dwarfed 9.5 pt text.
 */
const TEMPLATE_STYLES: Record<string, Record<string, unknown>> = {
  h1: { fontSize: 14, bold: true, marginTop: 6, marginBottom: 4 },
  h2: { fontSize: 11, bold: true, marginTop: 8, marginBottom: 3, color: '#a61b1b' },
  h3: { fontSize: 10, bold: true, marginTop: 8, marginBottom: 3 },
  h4: { fontSize: 9.5, bold: true, marginTop: 6, marginBottom: 2 },
  h5: { fontSize: 9.5, bold: true, marginBottom: 2 },
  h6: { fontSize: 9.5, bold: true, marginBottom: 2 },
  p: { margin: [0, 2, 0, 4] },
  table: { marginBottom: 6 },
  th: { bold: true, fontSize: 8.5, color: '#5f6368', fillColor: LABEL_FILL },
};

// Tighter than the built-in layout's: a template's tables hold more, shorter rows.
const templateGrid = { ...lightGrid, paddingTop: () => 2, paddingBottom: () => 2 };

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Nothing a reader would see: no text but blanks, no image, no signature block. */
function isBlank(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isBlank);
  if (!isNode(value)) return true;
  if ('image' in value || 'table' in value || 'canvas' in value || 'qr' in value) return false;
  return ['text', 'stack', 'ul', 'ol', 'columns'].every((key) => !(key in value) || isBlank(value[key]));
}

const isCell = (cell: unknown, nodeName: string) => isNode(cell) && cell.nodeName === nodeName;
const spans = (cell: unknown) => isNode(cell) && ((typeof cell.rowSpan === 'number' && cell.rowSpan > 1) || (typeof cell.colSpan === 'number' && cell.colSpan > 1));

/** One table, after its cells were visited: blank value rows out, the shared grid when the template set no widths. */
function shapeTable(node: Node, table: Node & { body: unknown[][] }): Node {
  // Spanning cells tie rows together: such a table is kept as the template drew it.
  const simple = !table.body.some((row) => row.some(spans));
  const kept = simple
    ? table.body.filter((row) => !row.some((cell) => isCell(cell, 'TD')) || !row.filter((cell) => isCell(cell, 'TD')).every(isBlank))
    : table.body;
  if (kept.length === 0) return { text: '' };
  const columns = Math.max(...kept.map((row) => row.length));
  const widths = Array.isArray(table.widths) ? (table.widths as unknown[]) : [];
  const ownWidths = widths.some((width) => width !== 'auto' && width !== '*');
  const labelled = columns >= 2 && kept.every((row) => isCell(row[0], 'TH'));
  const grid = ownWidths ? widths : Array.from({ length: columns }, (_, index) => (index === 0 && labelled ? LABEL_WIDTH : '*'));
  const shaped: Node = { ...node, table: { ...table, body: kept, widths: grid, dontBreakRows: true } };
  if (!('layout' in node)) shaped.layout = templateGrid;
  return shaped;
}

const HEADING = /^H[1-6]$/;

// ---------------------------------------------------------------------------
// Lines with nothing to print
// ---------------------------------------------------------------------------

/** The little of the DOM used here (the package has no DOM types: jsdom's window is passed in). */
interface DomNode {
  nodeName: string;
  textContent: string | null;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  remove(): void;
  querySelector?(selector: string): DomNode | null;
  querySelectorAll?(selector: string): ArrayLike<DomNode>;
}
interface DomWindow {
  DOMParser: new () => { parseFromString(html: string, type: 'text/html'): { body: DomNode & { innerHTML: string } } };
}

/** Longer static text than this beside empty variables is a sentence of the template, kept; shorter, a label. */
const LABEL_MAX_CHARS = 60;
const EMPTY_VALUE = new RegExp(`${TEMPLATE_VALUE_OPEN}\\s*${TEMPLATE_VALUE_CLOSE}`);
const EMPTY_VALUES = new RegExp(EMPTY_VALUE.source, 'g');
const VALUE_MARKER = new RegExp(`[${TEMPLATE_VALUE_OPEN}${TEMPLATE_VALUE_CLOSE}]`);
const VALUE_MARKERS = new RegExp(VALUE_MARKER.source, 'g');
const LINE_ELEMENTS = 'p, li, tr, dt, dd, h1, h2, h3, h4, h5, h6';

const hasImage = (nodes: readonly DomNode[]) => nodes.some((node) => node.nodeName === 'IMG' || Boolean(node.querySelector?.('img')));

/** Variables, all empty, beside at most a label: 'Téléphone : ', a row 'Photo' with no photo. */
function isEmptyLine(nodes: readonly DomNode[]): boolean {
  const text = nodes.map((node) => node.textContent ?? '').join('');
  if (!EMPTY_VALUE.test(text) || hasImage(nodes)) return false;
  const rest = text.replace(EMPTY_VALUES, '');
  // A marker left is a value with something in it (or the part of a multi-line one on this line).
  return !VALUE_MARKER.test(rest) && rest.trim().length <= LABEL_MAX_CHARS;
}

/**
 * Leaves out what the template would print as a label with nothing beside
 * it: a paragraph, list item or table row, or one `<br>`-separated line of a
 * cell ('Tél. {{client.telephone}}' under an address), whose variables all
 * came out empty. Then removes the value markers.
 */
function withoutEmptyLines(html: string, window: unknown): string {
  if (!EMPTY_VALUE.test(html)) return html.replace(VALUE_MARKERS, '');
  const body = new (window as DomWindow).DOMParser().parseFromString(html, 'text/html').body;
  for (const element of Array.from(body.querySelectorAll?.(LINE_ELEMENTS) ?? [])) {
    if (element.parentNode && isEmptyLine([element])) element.remove();
  }
  const parents = new Set(Array.from(body.querySelectorAll?.('br') ?? []).map((br) => br.parentNode));
  for (const parent of parents) {
    if (!parent) continue;
    // The lines of this parent, each with the <br> that ends it (none for the last).
    const lines: { nodes: DomNode[]; br: DomNode | null }[] = [{ nodes: [], br: null }];
    for (const child of Array.from(parent.childNodes)) {
      if (child.nodeName === 'BR') {
        lines[lines.length - 1]!.br = child;
        lines.push({ nodes: [], br: null });
      } else lines[lines.length - 1]!.nodes.push(child);
    }
    lines.forEach((line, index) => {
      if (!isEmptyLine(line.nodes)) return;
      for (const node of line.nodes) node.remove();
      // The last line gives back the <br> before it, so no blank line is left at the end.
      (line.br ?? lines[index - 1]?.br)?.remove();
    });
  }
  return body.innerHTML.replace(VALUE_MARKERS, '');
}

/**
 * A heading never ends a page alone: it goes with the block after it (a
 * short one whole, like the signatures' table; a long table starts under it
 * and breaks by rows).
 */
function keepHeadingsWithWhatFollows(nodes: unknown[]): Content[] {
  const out: Content[] = [];
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index];
    const next = nodes[index + 1];
    if (isNode(node) && typeof node.nodeName === 'string' && HEADING.test(node.nodeName) && next !== undefined && isShort(next)) {
      out.push({ stack: [node, next], unbreakable: true } as Content);
      index++;
    } else out.push(node as Content);
  }
  return out;
}

function isShort(node: unknown): boolean {
  if (!isNode(node) || !isNode(node.table)) return true;
  return Array.isArray(node.table.body) && node.table.body.length <= 2;
}

export function htmlTemplateContent(html: string, facts: ReportFacts, window: unknown): Content[] {
  const converted = htmlToPdfmake(withoutEmptyLines(html, window), { window, tableAutoSize: true, removeExtraBlanks: true, defaultStyles: TEMPLATE_STYLES });
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
    if (isNode(copy.table) && Array.isArray(copy.table.body)) {
      const body = (copy.table.body as unknown[]).map((row) => (Array.isArray(row) ? row.map(visit) : [visit(row)]));
      return shapeTable(copy, { ...copy.table, body });
    }
    return copy;
  };

  const image = (node: Node): Content => {
    const src = node.image as string;
    if (src === REPORT_IMAGE_KEYS.signatureClient) return signatureBlock(null, facts.signatures.client, src);
    if (src === REPORT_IMAGE_KEYS.signatureTechnicien) return signatureBlock(null, facts.signatures.technicien, src);
    const inline = DATA_IMAGE.exec(src);
    const bytes = inline ? Buffer.from(inline[2]!, 'base64') : src === REPORT_IMAGE_KEYS.photo ? facts.photo : null;
    if (reportImageUse(bytes) === 'too-large') return { text: IMAGE_TOO_LARGE_TEXT, style: 'muted' };
    const allowed = available.has(src) || inline !== null;
    if (!allowed) return { text: '' };
    const { width, height, fit, ...rest } = node;
    const maxWidth = typeof width === 'number' ? Math.min(width, PAGE_WIDTH) : PAGE_WIDTH;
    // The request's photo is evidence, not the report's subject: a third of the page unless the template sized it.
    const maxHeight = typeof height === 'number' ? Math.min(height, 700) : src === REPORT_IMAGE_KEYS.photo ? 90 : 400;
    return { ...rest, image: src, fit: Array.isArray(fit) ? fit : [maxWidth, maxHeight] } as Content;
  };

  const result = visit(converted);
  return [...reportHeader(facts), ...keepHeadingsWithWhatFollows((Array.isArray(result) ? result : [result]) as unknown[])];
}
