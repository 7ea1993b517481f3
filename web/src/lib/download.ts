import { CSV_BOM } from '@fsm/contracts';

/** Hands a file to the browser as a download (the token-carrying fetch already happened). */
function saveFile(content: Blob, fileName: string): void {
  if (typeof URL.createObjectURL !== 'function') return;
  const url = URL.createObjectURL(content);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A CSV as the server wrote it. Reading the answer as text drops its UTF-8
 * byte-order mark, which Excel needs to read the accents: it is put back.
 */
export function saveCsv(text: string, fileName: string): void {
  const content = text.startsWith(CSV_BOM) ? text : CSV_BOM + text;
  saveFile(new Blob([content], { type: 'text/csv;charset=utf-8' }), fileName);
}
