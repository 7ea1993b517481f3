import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/support/pdf-text.js';
import { withoutOpaqueAlpha } from './opaque-png.js';
import { renderReportPdf } from './pdf-render.js';
import { sampleReportFacts } from './sample-report.js';

/*
 * PNGs written here the plain way the spec describes (each row filtered
 * against the original bytes), so the fast in-place unfilter is checked
 * against an independent encoder, for every filter type.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface TestImage {
  width: number;
  height: number;
  /** 4 (RGBA) or 2 (grey + alpha) bytes a pixel. */
  channels: 2 | 4;
  pixels: Uint8Array;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function predictor(filter: number, left: number, up: number, upLeft: number): number {
  if (filter === 1) return left;
  if (filter === 2) return up;
  if (filter === 3) return Math.floor((left + up) / 2);
  if (filter === 4) {
    const p = left + up - upLeft;
    const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
    return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
  }
  return 0;
}

/** Row y uses filter `filterOf(y)`; header options let a test ask for what the fast path must refuse. */
function encodePng(image: TestImage, filterOf: (y: number) => number, header: { bitDepth?: number; interlace?: number } = {}): Buffer {
  const { width, height, channels, pixels } = image;
  const stride = width * channels;
  const raw = Buffer.alloc((stride + 1) * height);
  const at = (x: number, y: number) => (x < 0 || y < 0 ? 0 : pixels[y * stride + x]!);
  for (let y = 0; y < height; y++) {
    const filter = filterOf(y);
    raw[y * (stride + 1)] = filter;
    for (let x = 0; x < stride; x++) {
      raw[y * (stride + 1) + 1 + x] = (at(x, y) - predictor(filter, at(x - channels, y), at(x, y - 1), at(x - channels, y - 1))) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = header.bitDepth ?? 8;
  ihdr[9] = channels === 4 ? 6 : 4;
  ihdr[12] = header.interlace ?? 0;
  // Two IDAT chunks, as encoders often write.
  const compressed = deflateSync(raw);
  const half = compressed.length >> 1;
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', compressed.subarray(0, half)), chunk('IDAT', compressed.subarray(half)), chunk('IEND', Buffer.alloc(0))]);
}

/** Deterministic, varied pixels (every predictor branch gets exercised); alpha 255 unless `alphaAt` says otherwise. */
function testImage(width: number, height: number, channels: 2 | 4, alphaAt: (index: number) => number = () => 255): TestImage {
  const pixels = new Uint8Array(width * height * channels);
  let seed = 12345;
  for (let p = 0; p < width * height; p++) {
    for (let c = 0; c < channels - 1; c++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      pixels[p * channels + c] = (seed >>> 16) & 0xff;
    }
    pixels[p * channels + channels - 1] = alphaAt(p);
  }
  return { width, height, channels, pixels };
}

/** Header fields and colour bytes of a PNG whose rows are all unfiltered (what withoutOpaqueAlpha writes). */
function readUnfiltered(png: Uint8Array): { width: number; height: number; colorType: number; bitDepth: number; colours: Buffer } {
  const bytes = Buffer.from(png);
  const idat: Buffer[] = [];
  let ihdr = Buffer.alloc(0);
  for (let offset = 8; offset < bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    expect(bytes.readUInt32BE(offset + 8 + length)).toBe(crc32(bytes.subarray(offset + 4, offset + 8 + length)));
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const colorType = ihdr[9]!;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = (raw.length / height) | 0;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    expect(raw[y * stride]).toBe(0);
    rows.push(raw.subarray(y * stride + 1, (y + 1) * stride));
  }
  return { width, height, colorType, bitDepth: ihdr[8]!, colours: Buffer.concat(rows) };
}

function coloursOf(image: TestImage): Buffer {
  const colours: number[] = [];
  for (let i = 0; i < image.pixels.length; i += image.channels) colours.push(...image.pixels.subarray(i, i + image.channels - 1));
  return Buffer.from(colours);
}

describe('opaque PNG without its alpha channel', () => {
  it.each([
    ['None', 0],
    ['Sub', 1],
    ['Up', 2],
    ['Average', 3],
    ['Paeth', 4],
  ])('keeps every colour of an opaque RGBA image whose rows use the %s filter', (_name, filter) => {
    const image = testImage(37, 9, 4);
    const result = readUnfiltered(withoutOpaqueAlpha(encodePng(image, () => filter)));
    expect(result).toMatchObject({ width: 37, height: 9, colorType: 2, bitDepth: 8 });
    expect(result.colours.equals(coloursOf(image))).toBe(true);
  });

  it('keeps every colour when the filter changes from row to row, and turns grey + alpha into grey', () => {
    const rgba = testImage(23, 15, 4);
    const fromRgba = readUnfiltered(withoutOpaqueAlpha(encodePng(rgba, (y) => y % 5)));
    expect(fromRgba.colours.equals(coloursOf(rgba))).toBe(true);

    const grey = testImage(19, 11, 2);
    const fromGrey = readUnfiltered(withoutOpaqueAlpha(encodePng(grey, (y) => (y * 3) % 5)));
    expect(fromGrey).toMatchObject({ colorType: 0, bitDepth: 8 });
    expect(fromGrey.colours.equals(coloursOf(grey))).toBe(true);
  });

  it('hands over unchanged what it must not or cannot rewrite', () => {
    const oneTranslucentPixel = encodePng(testImage(16, 16, 4, (p) => (p === 200 ? 254 : 255)), (y) => y % 5);
    const sixteenBits = encodePng(testImage(4, 4, 4), () => 0, { bitDepth: 16 });
    const interlaced = encodePng(testImage(8, 8, 4), () => 0, { interlace: 1 });
    const truncated = encodePng(testImage(8, 8, 4), () => 1).subarray(0, 60);
    const unknownFilter = encodePng(testImage(8, 8, 4), () => 7);
    const rgb = sampleReportFacts().signatures.client.image!;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);
    for (const image of [oneTranslucentPixel, sixteenBits, interlaced, truncated, unknownFilter, rgb, jpeg]) {
      expect(withoutOpaqueAlpha(image)).toBe(image);
    }
  });
});

describe('report with signatures drawn on the pad (RGBA, white background)', () => {
  const padSignature = (alphaAt?: (index: number) => number) => new Uint8Array(encodePng(testImage(120, 40, 4, alphaAt), (y) => y % 5));

  it('embeds opaque signatures without a soft mask, and keeps the mask of a translucent one', async () => {
    const facts = sampleReportFacts();
    facts.signatures.client = { ...facts.signatures.client, image: padSignature() };
    facts.signatures.technicien = { ...facts.signatures.technicien, image: padSignature((p) => (p % 7 === 0 ? 0 : 255)) };
    const { pdf } = await renderReportPdf({ facts, templateHtml: null });
    const source = pdf.toString('latin1');
    // Photo, two signatures, and one soft mask: the translucent signature's.
    expect(source.match(/\/Subtype \/Image/g)).toHaveLength(4);
    expect(source.match(/\/SMask/g)).toHaveLength(1);
    expect(pdfText(pdf)).toContain('Signé par : Claire Martin');
  });
});
