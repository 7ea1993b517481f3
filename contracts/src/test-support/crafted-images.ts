import { crc32, deflateSync } from 'node:zlib';

/*
 * Small files whose headers declare whatever size a test asks for: what a
 * hostile client sends (a 12000 × 12000 PNG of a few hundred bytes), and what
 * phones really produce, without shipping binary fixtures. Only the header is
 * real; the pixel data is a token (a decoder would stop early), which is the
 * point: nothing may decode these before checking their size.
 */

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

export interface CraftedPngOptions {
  /** 2 RGB, 6 RGBA (default), 4 grey + alpha, 0 grey, 3 palette. */
  colorType?: number;
  bitDepth?: number;
  interlace?: 0 | 1;
}

/** A PNG that declares `width` × `height`; its data is one deflated row of zeros. */
export function craftedPng(width: number, height: number, options: CraftedPngOptions = {}): Buffer {
  const colorType = options.colorType ?? 6;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = options.bitDepth ?? 8;
  ihdr[9] = colorType;
  ihdr[12] = options.interlace ?? 0;
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType] ?? 4;
  const row = Buffer.alloc(1 + Math.min(width, 4096) * channels);
  const palette = colorType === 3 ? [pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]))] : [];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...palette,
    pngChunk('IDAT', deflateSync(row)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body]);

/** A JPEG (JFIF, then `exifBytes` of APP1, then the frame header `sof`) that declares `width` × `height`. */
export function craftedJpeg(width: number, height: number, options: { sof?: number; exifBytes?: number } = {}): Buffer {
  const frame = Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  const exif = options.exifBytes ? [segment(0xe1, Buffer.concat([Buffer.from('Exif\u0000\u0000', 'latin1'), Buffer.alloc(options.exifBytes, 0x2a)]))] : [];
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\u0000\u0001\u0001\u0000\u0000\u0001\u0000\u0001\u0000\u0000', 'latin1')),
    ...exif,
    segment(options.sof ?? 0xc0, frame),
    segment(0xda, Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])),
    Buffer.alloc(64, 0x55),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function riff(chunk: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(chunk, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  const top = Buffer.alloc(8);
  top.write('RIFF', 0, 'latin1');
  top.writeUInt32LE(body.length, 4);
  return Buffer.concat([top, body]);
}

/** A WebP that declares `width` × `height`: extended (VP8X canvas, up to 2^24), lossy (VP8) or lossless (VP8L), both up to 16383. */
export function craftedWebp(width: number, height: number, kind: 'VP8X' | 'VP8' | 'VP8L' = 'VP8X'): Buffer {
  if (kind === 'VP8X') {
    const data = Buffer.alloc(10);
    data.writeUIntLE(width - 1, 4, 3);
    data.writeUIntLE(height - 1, 7, 3);
    return riff('VP8X', data);
  }
  if (kind === 'VP8') {
    const data = Buffer.alloc(30);
    data.set([0x9d, 0x01, 0x2a], 3);
    data.writeUInt16LE(width & 0x3fff, 6);
    data.writeUInt16LE(height & 0x3fff, 8);
    return riff('VP8 ', data);
  }
  const data = Buffer.alloc(16);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 1);
  return riff('VP8L', data);
}

function box(type: string, ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length + 8, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

function ispe(width: number, height: number): Buffer {
  const body = Buffer.alloc(12);
  body.writeUInt32BE(width, 4);
  body.writeUInt32BE(height, 8);
  return box('ispe', body);
}

/**
 * A HEIC or AVIF as a phone writes it: a grid item of `width` × `height` over
 * 512 × 512 tiles, and a thumbnail, each with its 'ispe' property.
 */
export function craftedHeif(width: number, height: number, brand: 'heic' | 'avif' = 'heic'): Buffer {
  const ftyp = box('ftyp', Buffer.from(`${brand}\u0000\u0000\u0000\u0000mif1${brand}`, 'latin1'));
  const hdlr = box('hdlr', Buffer.alloc(4), Buffer.from('\u0000\u0000\u0000\u0000pict', 'latin1'), Buffer.alloc(13));
  const ipco = box('ipco', ispe(512, 512), ispe(320, 240), ispe(width, height));
  const meta = box('meta', Buffer.alloc(4), hdlr, box('iprp', ipco));
  return Buffer.concat([ftyp, meta, box('mdat', Buffer.alloc(256, 0x11))]);
}
