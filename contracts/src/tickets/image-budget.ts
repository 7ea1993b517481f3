/*
 * Pixel budget of every image the product takes in (ticket photos, signatures,
 * images in report templates), judged from the dimensions the file's header
 * declares, before anything decodes it: a small file can declare a huge
 * picture (a 560 KB PNG of 12000 × 12000 pixels took a report 26 s and 2 GB
 * of memory to decode).
 *
 * 8192 × 6144 (50.3 Mpx) holds the largest photos phones save at full
 * resolution and that reach the server untouched (the browser recompresses
 * only photos over 8 MB): 48 Mpx iPhone HEIF (8064 × 6048, 5 to 8 MB) and
 * 50 Mpx Android photos (8160 × 6144). The 64 to 200 Mpx modes weigh 15 to
 * 60 MB, so the browser brings them down to 2000 px wide before sending. The
 * signature pad draws about 1100 × 480. The longest side stops thin strips
 * that keep under the pixel count (16384 is also as far as WebP and browser
 * canvases go).
 *
 * This file imports nothing: the report render thread loads it alone
 * (`@fsm/contracts/image-budget`), without the rest of the contracts.
 */
export const IMAGE_MAX_PIXELS = 8192 * 6144;
export const IMAGE_MAX_SIDE_PX = 16_384;

export interface ImageSize {
  width: number;
  height: number;
}

export function isImageWithinBudget({ width, height }: ImageSize): boolean {
  return width > 0 && height > 0 && width <= IMAGE_MAX_SIDE_PX && height <= IMAGE_MAX_SIDE_PX && width * height <= IMAGE_MAX_PIXELS;
}

/** Not in the spec: the 400 for an image over the budget, with its declared size so the user sees why. */
export function imageTooLargeMessage({ width, height }: ImageSize): string {
  return `Image trop grande : ${width} × ${height} pixels. La limite est de ${Math.floor(IMAGE_MAX_PIXELS / 1_000_000)} mégapixels et de ${IMAGE_MAX_SIDE_PX} pixels de côté ; merci de choisir une image plus petite.`;
}

// --- reading the header ------------------------------------------------------

const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u16le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));
const sized = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

function pngSize(b: Uint8Array): ImageSize | null {
  // The signature, then IHDR first (the PNG specification requires it there).
  if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') return null;
  return sized(u32be(b, 16), u32be(b, 20));
}

/** SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * Walks the segments (marker, length) up to the first frame header. Strict:
 * anything but a marker where one is due means the file is not a JPEG we can
 * size, so a crafted file costs one step per segment, never a byte-by-byte
 * search.
 */
function jpegSize(b: Uint8Array): ImageSize | null {
  let at = 2;
  while (at < b.length) {
    if (b[at] !== 0xff) return null;
    while (b[at] === 0xff) at++; // fill bytes
    const marker = b[at];
    at++;
    if (marker === undefined || marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame header
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) continue; // markers without a length
    if (at + 2 > b.length) return null;
    const length = u16be(b, at);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) return at + 7 <= b.length ? sized(u16be(b, at + 5), u16be(b, at + 3)) : null;
    at += length;
  }
  return null;
}

function webpSize(b: Uint8Array): ImageSize | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  const data = 20;
  // Lossy: a key frame's start code, then 14-bit width and height.
  if (chunk === 'VP8 ') return b[data + 3] === 0x9d && b[data + 4] === 0x01 && b[data + 5] === 0x2a ? sized(u16le(b, data + 6) & 0x3fff, u16le(b, data + 8) & 0x3fff) : null;
  // Lossless: a signature byte, then width - 1 and height - 1 on 14 bits each.
  if (chunk === 'VP8L') {
    if (b[data] !== 0x2f) return null;
    const bits = (b[data + 1]! | (b[data + 2]! << 8) | (b[data + 3]! << 16) | (b[data + 4]! << 24)) >>> 0;
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  // Extended: the canvas every frame is drawn on, width - 1 and height - 1 on 24 bits each.
  if (chunk === 'VP8X') return sized(u24le(b, data + 4) + 1, u24le(b, data + 7) + 1);
  return null;
}

interface Box {
  start: number;
  end: number;
}

const typeIs = (b: Uint8Array, at: number, type: string) =>
  b[at] === type.charCodeAt(0) && b[at + 1] === type.charCodeAt(1) && b[at + 2] === type.charCodeAt(2) && b[at + 3] === type.charCodeAt(3);

/** The content of the ISO-BMFF box at `at` (ending by `to`); null when its size is impossible. */
function boxAt(b: Uint8Array, at: number, to: number): Box | null {
  let size = u32be(b, at);
  let header = 8;
  if (size === 1) {
    // A 64-bit size: over 4 GB is not in an 8 MB file.
    if (at + 16 > to || u32be(b, at + 8) !== 0) return null;
    size = u32be(b, at + 12);
    header = 16;
  } else if (size === 0) {
    size = to - at;
  }
  return size < header || at + size > to ? null : { start: at + header, end: at + size };
}

/**
 * Calls `visit` with each box between `from` and `to` until it answers
 * something else than undefined; null when a size is impossible. A crafted
 * file may hold a million boxes: this walk allocates one small object a box
 * and nothing else.
 */
function eachBox<T>(b: Uint8Array, from: number, to: number, visit: (type: number, box: Box) => T | undefined): T | null | undefined {
  for (let at = from; at + 8 <= to; ) {
    const box = boxAt(b, at, to);
    if (!box) return null;
    const answer = visit(at + 4, box);
    if (answer !== undefined) return answer;
    at = box.end;
  }
  return undefined;
}

const findBox = (b: Uint8Array, from: number, to: number, type: string): Box | null =>
  eachBox(b, from, to, (typeAt, box) => (typeIs(b, typeAt, type) ? box : undefined)) ?? null;

/**
 * HEIF, HEIC and AVIF: every image item's size is an 'ispe' property in
 * meta/iprp/ipco. A photo is a grid of tiles (512 × 512) whose grid item
 * carries the full size, and may hold a thumbnail: the largest one is the
 * picture a decoder would build.
 */
function heifSize(b: Uint8Array): ImageSize | null {
  const meta = findBox(b, 0, b.length, 'meta');
  // meta is a full box: version and flags before its children.
  const iprp = meta && findBox(b, meta.start + 4, meta.end, 'iprp');
  const ipco = iprp && findBox(b, iprp.start, iprp.end, 'ipco');
  if (!ipco) return null;
  let largest: ImageSize | null = null;
  const stop = eachBox(b, ipco.start, ipco.end, (typeAt, box) => {
    if (!typeIs(b, typeAt, 'ispe') || box.end - box.start < 12) return undefined;
    const size = sized(u32be(b, box.start + 4), u32be(b, box.start + 8));
    if (!size) return 'unreadable';
    if (!largest || size.width * size.height > largest.width * largest.height) largest = size;
    return undefined;
  });
  return stop === undefined ? largest : null;
}

/**
 * The width and height a PNG, JPEG, WebP, HEIF/HEIC, AVIF or GIF file declares,
 * read from its header without decoding a pixel; null when the bytes are none
 * of these or their header cannot be read (no decoder could show them either).
 */
export function imageHeaderSize(bytes: Uint8Array): ImageSize | null {
  const b = bytes;
  if (b.length < 12) return null;
  if (b[0] === 0x89 && ascii(b, 1, 3) === 'PNG') return pngSize(b);
  if (b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return webpSize(b);
  if (ascii(b, 4, 4) === 'ftyp') return heifSize(b);
  // GIF: the logical screen every frame is drawn on.
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return sized(u16le(b, 6), u16le(b, 8));
  return null;
}
