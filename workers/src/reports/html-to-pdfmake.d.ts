declare module 'html-to-pdfmake' {
  import type { Content } from 'pdfmake/interfaces.js';

  interface HtmlToPdfmakeOptions {
    /** A DOM window (jsdom's on the server). */
    window?: unknown;
    tableAutoSize?: boolean;
    removeExtraBlanks?: boolean;
    defaultStyles?: Record<string, Record<string, unknown>>;
    ignoreStyles?: string[];
    imagesByReference?: boolean;
  }

  function htmlToPdfmake(html: string, options?: HtmlToPdfmakeOptions): Content;
  export default htmlToPdfmake;
}
