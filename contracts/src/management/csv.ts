/*
 * CSV for French spreadsheets: ';' separator (',' is the decimal mark), CRLF
 * line ends, and a UTF-8 byte-order mark so Excel reads the accents right.
 */
export const CSV_SEPARATOR = ';';
export const CSV_LINE_END = '\r\n';
export const CSV_BOM = '\uFEFF';

/**
 * Quotes a cell when it holds the separator, a quote or a line break, doubling
 * inner quotes. A text cell that a spreadsheet would run as a formula
 * (= + - @ at the start) gets a leading apostrophe: exported names come from
 * users and anonymous QR visitors.
 */
export function escapeCsvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsvLine(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(escapeCsvCell).join(CSV_SEPARATOR);
}

/** Header and rows, each line ended; the BOM is optional for callers that add their own. */
export function toCsvDocument(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[], options: { bom?: boolean } = {}): string {
  const body = [header, ...rows].map((cells) => toCsvLine(cells) + CSV_LINE_END).join('');
  return (options.bom ?? true ? CSV_BOM : '') + body;
}
