import { describe, expect, it } from 'vitest';
import { craftedHeif, craftedJpeg, craftedPng, craftedWebp } from '../test-support/crafted-images.js';
import { IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE_PX, imageHeaderSize, imageTooLargeMessage, isImageWithinBudget } from './image-budget.js';

describe('imageHeaderSize', () => {
  it.each([
    ['PNG', craftedPng(1074, 480)],
    ['baseline JPEG', craftedJpeg(1074, 480)],
    ['progressive JPEG after 60 KB of EXIF', craftedJpeg(1074, 480, { sof: 0xc2, exifBytes: 60_000 })],
    ['lossless JPEG (SOF3)', craftedJpeg(1074, 480, { sof: 0xc3 })],
    ['arithmetic JPEG (SOF9)', craftedJpeg(1074, 480, { sof: 0xc9 })],
    ['extended WebP', craftedWebp(1074, 480, 'VP8X')],
    ['lossy WebP', craftedWebp(1074, 480, 'VP8')],
    ['lossless WebP', craftedWebp(1074, 480, 'VP8L')],
    ['GIF', Buffer.from([...Buffer.from('GIF89a'), 0x32, 0x04, 0xe0, 0x01, 0, 0, 0, 0x3b])],
  ])('reads the declared size of a %s', (_label, bytes) => {
    expect(imageHeaderSize(bytes)).toEqual({ width: 1074, height: 480 });
  });

  it.each(['heic', 'avif'] as const)('reads the full size of a tiled %s, not a tile or the thumbnail', (brand) => {
    expect(imageHeaderSize(craftedHeif(8064, 6048, brand))).toEqual({ width: 8064, height: 6048 });
  });

  it('reads sizes a decoder would choke on, without decoding', () => {
    expect(imageHeaderSize(craftedPng(12_000, 12_000))).toEqual({ width: 12_000, height: 12_000 });
    expect(imageHeaderSize(craftedJpeg(65_535, 65_535))).toEqual({ width: 65_535, height: 65_535 });
    expect(imageHeaderSize(craftedWebp(16_777_216, 2, 'VP8X'))).toEqual({ width: 16_777_216, height: 2 });
    expect(imageHeaderSize(craftedHeif(100_000, 100_000))).toEqual({ width: 100_000, height: 100_000 });
  });

  it('gives null for what it cannot size', () => {
    const jpeg = craftedJpeg(100, 100);
    const cases: Buffer[] = [
      Buffer.from('BM6\u0000\u0000\u0000\u0000\u0000\u0000\u00006\u0000\u0000'),
      Buffer.from('%PDF-1.4 nothing to see'),
      craftedPng(0, 10),
      craftedPng(10, 10).subarray(0, 20),
      // A JPEG whose segments lead nowhere: no marker where one is due, as in 8 MB of noise.
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x01, 0x01]), Buffer.alloc(8 * 1024 * 1024, 1)]),
      // Scan data before any frame header, and a JPEG cut short.
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]), Buffer.alloc(32)]),
      jpeg.subarray(0, jpeg.indexOf(Buffer.from([0xff, 0xc0])) + 6),
      craftedHeif(0, 10),
      // An ISO-BMFF box that claims more bytes than the file has.
      Buffer.concat([craftedHeif(10, 10).subarray(0, 24), Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from('meta')]),
    ];
    for (const bytes of cases) expect(imageHeaderSize(bytes)).toBeNull();
  });
});

describe('the image budget', () => {
  it('takes the largest photos phones send untouched, and the signature pad', () => {
    for (const [width, height] of [
      [8064, 6048], // iPhone 48 Mpx HEIF
      [8160, 6144], // Android 50 Mpx
      [6048, 8064], // the same, portrait
      [4032, 3024], // 12 Mpx, most phones' default
      [1074, 480], // the signature pad on a phone
      [IMAGE_MAX_SIDE_PX, Math.floor(IMAGE_MAX_PIXELS / IMAGE_MAX_SIDE_PX)],
    ] as const) {
      expect(isImageWithinBudget({ width, height }), `${width} × ${height}`).toBe(true);
    }
  });

  it('refuses more pixels, a longer side, or no pixels at all', () => {
    for (const [width, height] of [
      [12_000, 12_000], // the PNG
      [9248, 6936], // 64 Mpx: the browser resizes these first
      [IMAGE_MAX_SIDE_PX + 1, 100],
      [100, 20_000],
      [0, 100],
    ] as const) {
      expect(isImageWithinBudget({ width, height }), `${width} × ${height}`).toBe(false);
    }
  });

  it('says in French how large the image is and what the limit is', () => {
    expect(imageTooLargeMessage({ width: 12_000, height: 12_000 })).toBe(
      'Image trop grande : 12000 × 12000 pixels. La limite est de 50 mégapixels et de 16384 pixels de côté ; merci de choisir une image plus petite.',
    );
  });
});
