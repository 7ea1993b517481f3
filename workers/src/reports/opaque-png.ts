import { deflateSync, inflateSync } from 'node:zlib';
import { pngChunk } from './sample-images.js';

/*
 * The signature pad saves RGBA PNGs on a white background: every pixel is
 * opaque, yet the alpha channel makes pdfkit decode the image with png-js
 * (a byte-at-a-time JavaScript unfilter), split it into colour and a soft
 * mask, and compress both again: 20 to 45 ms for a signature drawn on a
 * phone (1,080 x 480 pixels), more than the rest of the report. An RGB or
 * grey PNG is copied into the PDF as is.
 *
 * So, before pdfkit sees it, an 8-bit RGBA or grey+alpha PNG whose alpha is
 * 255 everywhere is rewritten as the same pixels without the alpha channel:
 * the PDF shows exactly the same image (a soft mask of all ones masks
 * nothing). Anything else (some transparency, 16 bits, interlaced, palette,
 * a PNG this reader does not follow) is handed over unchanged, and pdfkit
 * does what it always did. The rewrite costs less than half of pdfkit's
 * path; the PDF grows by a few hundred bytes a signature (a filter byte per
 * row), and loses the soft mask that masked nothing.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const GREY_ALPHA = 4;
const RGBA = 6;
/** Colour type without alpha for each colour type with alpha. */
const WITHOUT_ALPHA: Record<number, number> = { [GREY_ALPHA]: 0, [RGBA]: 2 };
/** A signature at a phone's pixel ratio is ~1,100 x 480; beyond this, leave the image to pdfkit rather than hold a huge buffer. */
const MAX_PIXELS = 16_000_000;

interface PngHeader {
  width: number;
  height: number;
  colorType: number;
}

interface PngParts {
  header: PngHeader;
  compressed: Buffer;
}

/** IHDR and the concatenated IDAT data of an 8-bit, non-interlaced PNG with alpha; null for anything else. */
function readParts(png: Buffer): PngParts | null {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let header: PngHeader | null = null;
  const idat: Buffer[] = [];
  for (let offset = 8; offset + 8 <= png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (data.length !== length) return null;
    if (type === 'IHDR') {
      const [bitDepth, colorType, , , interlace] = data.subarray(8, 13);
      if (bitDepth !== 8 || interlace !== 0 || colorType === undefined || !(colorType in WITHOUT_ALPHA)) return null;
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), colorType };
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  if (!header || idat.length === 0 || header.width === 0 || header.height === 0 || header.width * header.height > MAX_PIXELS) return null;
  return { header, compressed: Buffer.concat(idat) };
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/**
 * Undoes the PNG filter of the row at `start` in place; the row above starts
 * at `up`, already unfiltered. Indices are absolute into `raw` (per-row views
 * cost more than the loop), and there is no closure, which would move `raw`
 * into a heap context and slow every access.
 */
function unfilterRow(raw: Buffer, start: number, up: number, length: number, bpp: number): boolean {
  const end = start + length;
  switch (raw[start - 1]) {
    case 0:
      return true;
    case 1:
      for (let i = start + bpp; i < end; i++) raw[i] = (raw[i]! + raw[i - bpp]!) & 0xff;
      return true;
    case 2:
      for (let i = start, j = up; i < end; i++, j++) raw[i] = (raw[i]! + raw[j]!) & 0xff;
      return true;
    case 3:
      for (let i = start, j = up; i < start + bpp; i++, j++) raw[i] = (raw[i]! + (raw[j]! >> 1)) & 0xff;
      for (let i = start + bpp, j = up + bpp; i < end; i++, j++) raw[i] = (raw[i]! + ((raw[i - bpp]! + raw[j]!) >> 1)) & 0xff;
      return true;
    case 4:
      for (let i = start, j = up; i < start + bpp; i++, j++) raw[i] = (raw[i]! + raw[j]!) & 0xff;
      for (let i = start + bpp, j = up + bpp; i < end; i++, j++) raw[i] = (raw[i]! + paeth(raw[i - bpp]!, raw[j]!, raw[j - bpp]!)) & 0xff;
      return true;
    default:
      return false;
  }
}

/** The first row: the row above counts as zeros. */
function unfilterFirstRow(raw: Buffer, start: number, length: number, bpp: number): boolean {
  const end = start + length;
  switch (raw[start - 1]) {
    case 0:
    case 2: // Up: adds zeros.
      return true;
    case 1:
    case 4: // Paeth with zeros above always picks the left byte: Sub.
      for (let i = start + bpp; i < end; i++) raw[i] = (raw[i]! + raw[i - bpp]!) & 0xff;
      return true;
    case 3:
      for (let i = start + bpp; i < end; i++) raw[i] = (raw[i]! + (raw[i - bpp]! >> 1)) & 0xff;
      return true;
    default:
      return false;
  }
}

/** Copies one unfiltered row's colour bytes after a filter-0 byte; false when a pixel is not fully opaque. */
function copyOpaqueRow(raw: Buffer, start: number, length: number, out: Buffer, at: number, bpp: number): boolean {
  const end = start + length;
  let alpha = 0xff;
  let o = at;
  if (bpp === 4) {
    for (let i = start; i < end; i += 4, o += 3) {
      out[o] = raw[i]!;
      out[o + 1] = raw[i + 1]!;
      out[o + 2] = raw[i + 2]!;
      alpha &= raw[i + 3]!;
    }
  } else {
    for (let i = start; i < end; i += 2, o++) {
      out[o] = raw[i]!;
      alpha &= raw[i + 1]!;
    }
  }
  return alpha === 0xff;
}

/** Filter-0 rows of the colour channels, or null as soon as one row has a pixel that is not fully opaque. */
function opaqueRowsWithoutAlpha(header: PngHeader, raw: Buffer): Buffer | null {
  const bpp = header.colorType === RGBA ? 4 : 2;
  const stride = header.width * bpp;
  if (raw.length !== (stride + 1) * header.height) return null;
  const outStride = header.width * (bpp - 1) + 1;
  const out = Buffer.alloc(outStride * header.height);
  for (let y = 0; y < header.height; y++) {
    const start = y * (stride + 1) + 1;
    const ok = y === 0 ? unfilterFirstRow(raw, start, stride, bpp) : unfilterRow(raw, start, start - stride - 1, stride, bpp);
    if (!ok) return null;
    if (!copyOpaqueRow(raw, start, stride, out, y * outStride + 1, bpp)) return null;
  }
  return out;
}


function encodePng(header: PngHeader, rows: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(header.width, 0);
  ihdr.writeUInt32BE(header.height, 4);
  ihdr[8] = 8;
  ihdr[9] = WITHOUT_ALPHA[header.colorType]!;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The same image without its alpha channel when that channel is opaque everywhere; otherwise the bytes given. */
export function withoutOpaqueAlpha(image: Uint8Array): Uint8Array {
  const png = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  const parts = readParts(png);
  if (!parts) return image;
  const { width, height, colorType } = parts.header;
  let raw: Buffer;
  try {
    raw = inflateSync(parts.compressed, { maxOutputLength: (width * (colorType === RGBA ? 4 : 2) + 1) * height });
  } catch {
    // Corrupt, or more data than the header announces: pdfkit's own reader decides.
    return image;
  }
  const rows = opaqueRowsWithoutAlpha(parts.header, raw);
  return rows ? encodePng(parts.header, rows) : image;
}
