import sanitizeHtml from 'sanitize-html';
import { ValidationError, imageHeaderSize, imageTooLargeMessage, isImageWithinBudget } from '@fsm/contracts';

/*
 * Templates are report layouts: they are shown in the builder's preview and
 * rendered into PDFs, so what is stored must not run code nor make a reader
 * fetch from elsewhere. The HTML is cut down to an allow-list of layout tags;
 * images may be inline (data:image/...) or served by this server (relative, or
 * absolute on PUBLIC_URL): an external URL would let a template make the PDF
 * renderer or a reader's browser call any host.
 */

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]+$/i;

const STYLE_VALUES = {
  'text-align': [/^(left|right|center|justify)$/i],
  'font-weight': [/^(normal|bold|bolder|lighter|[1-9]00)$/i],
  'font-size': [/^\d{1,3}(\.\d{1,2})?(px|pt|em|rem|%)$/i, /^(x{0,2}-small|small|medium|large|x{0,2}-large|smaller|larger)$/i],
  color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*[\d.]+%?\s*,\s*[\d.]+%?\s*,\s*[\d.]+%?\s*(,\s*[\d.]+\s*)?\)$/i, /^[a-z]{3,20}$/i],
};

const STYLED = ['span', 'div', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th'];

function isAllowedImageSource(src: string | undefined, publicUrl: string): boolean {
  if (!src) return false;
  const value = src.trim();
  if (DATA_IMAGE.test(value)) return true;
  if (value.startsWith('//') || value.startsWith('\\')) return false;
  // No scheme at all: a path on this server.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(value)) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

function keepNumeric(names: readonly string[], pattern: RegExp): sanitizeHtml.Transformer {
  return (tagName, attribs) => ({
    tagName,
    attribs: Object.fromEntries(Object.entries(attribs).filter(([name, value]) => !names.includes(name) || pattern.test(value.trim()))),
  });
}

const INLINE_IMAGE = /data:image\/[a-z+.-]+;base64,([a-z0-9+/=\s]+)/gi;

/**
 * Inline images go through the same pixel budget as photos (contracts
 * image-budget.ts): the builder's preview and the report's PDF decode them,
 * and a few hundred KB of base64 can declare 12000 × 12000 pixels.
 */
function refuseOversizedInlineImages(text: string): void {
  for (const match of text.matchAll(INLINE_IMAGE)) {
    const size = imageHeaderSize(Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64'));
    if (size && !isImageWithinBudget(size)) throw new ValidationError(imageTooLargeMessage(size));
  }
}

/** Throws a French ValidationError when an inline image is over the pixel budget. */
export function sanitizeTemplateHtml(html: string, publicUrl: string): string {
  refuseOversizedInlineImages(html);
  return sanitizeHtml(html, {
    allowedTags: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'img', 'span', 'div', 'hr'],
    allowedAttributes: {
      ...Object.fromEntries(STYLED.map((tag) => [tag, ['style']])),
      td: ['colspan', 'rowspan', 'style'],
      th: ['colspan', 'rowspan', 'style'],
      img: ['src', 'alt', 'width', 'height'],
    },
    allowedStyles: { '*': STYLE_VALUES },
    allowedSchemes: [],
    allowedSchemesByTag: { img: ['data', 'http', 'https'] },
    allowedSchemesAppliedToAttributes: ['src'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // An image whose source is not allowed goes altogether (not left as an empty <img>).
    exclusiveFilter: (frame) => frame.tag === 'img' && !isAllowedImageSource(frame.attribs['src'], publicUrl),
    // Sizes are numbers (of pixels, or percentages), spans small whole numbers.
    transformTags: {
      img: keepNumeric(['width', 'height'], /^\d{1,4}%?$/),
      td: keepNumeric(['colspan', 'rowspan'], /^\d{1,2}$/),
      th: keepNumeric(['colspan', 'rowspan'], /^\d{1,2}$/),
    },
  }).trim();
}

/**
 * The template's stylesheet: no way out of the <style> element it is put in,
 * no imports, no external url(), no legacy script hooks. Inline images stay.
 */
export function sanitizeTemplateCss(css: string): string {
  refuseOversizedInlineImages(css);
  return css
    .replace(/</g, '')
    .replace(/@import[^;]*;?/gi, '')
    .replace(/url\(\s*(['"]?)(.*?)\1\s*\)/gi, (match: string, _quote: string, target: string) => (DATA_IMAGE.test(target.trim()) ? match : 'none'))
    .replace(/expression\s*\(/gi, '(')
    .replace(/(-moz-binding|behavior)\s*:/gi, 'x-removed:')
    .replace(/javascript:/gi, '')
    .trim();
}
