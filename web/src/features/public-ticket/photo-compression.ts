import { PHOTO_COMPRESSION_MAX_WIDTH_PX, PHOTO_COMPRESSION_QUALITIES, PHOTO_MAX_BYTES, TICKET_MESSAGES } from '@fsm/contracts';
import type imageCompressionType from 'browser-image-compression';
// The library's own build, served by the app: without `libURL` its worker
// imports it from a public CDN, which the CSP refuses and a site's firewall
// may block (issue 18, item 6: nothing may load from a third party).
import compressionLibPath from 'browser-image-compression/dist/browser-image-compression.js?url';

/** A photo that could not be brought under the limit; `message` is the spec's text. */
export class PhotoCompressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhotoCompressionError';
  }
}

type Compress = typeof imageCompressionType;

async function loadCompressor(): Promise<Compress> {
  // Loaded on demand: most photos are under 8 MB and never need it.
  const module = await import('browser-image-compression');
  return module.default;
}

/** Absolute: the worker runs from a blob: URL, against which a path would not resolve. */
function compressionLibUrl(): string {
  return new URL(compressionLibPath, document.baseURI).href;
}

/** Pixel size of an image file, EXIF orientation applied; null when the browser cannot tell. */
async function imageSize(file: File): Promise<{ width: number; height: number } | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return null;
  }
}

/**
 * The library bounds the longest side; spec §5 bounds the width. For a
 * portrait photo wider than 2000 px the longest side is scaled so the width
 * lands on 2000; a photo narrower than that keeps its size.
 */
export function longestSideFor(size: { width: number; height: number } | null): number {
  if (!size) return PHOTO_COMPRESSION_MAX_WIDTH_PX;
  const longest = Math.max(size.width, size.height);
  if (size.width <= PHOTO_COMPRESSION_MAX_WIDTH_PX) return longest;
  return Math.round((PHOTO_COMPRESSION_MAX_WIDTH_PX * longest) / size.width);
}

function jpegName(name: string): string {
  const base = name.replace(/\.[^.]+$/, '');
  return `${base || 'photo'}.jpg`;
}

/**
 * Spec §5: a photo over 8 MB (8388608 bytes) is re-encoded as JPEG at most
 * 2000 px wide, quality 0.85, then 0.7; still too big, or any failure, gives
 * the spec's message. A photo within the limit is returned untouched.
 */
export async function preparePhoto(file: File, compress?: Compress): Promise<File> {
  if (file.size <= PHOTO_MAX_BYTES) return file;
  let run: Compress;
  let maxWidthOrHeight: number;
  try {
    run = compress ?? (await loadCompressor());
    maxWidthOrHeight = longestSideFor(await imageSize(file));
  } catch {
    throw new PhotoCompressionError(TICKET_MESSAGES.photoCompressionFailed);
  }
  for (const quality of PHOTO_COMPRESSION_QUALITIES) {
    let out: File;
    try {
      out = await run(file, {
        maxWidthOrHeight,
        initialQuality: quality,
        fileType: 'image/jpeg',
        // One pass per quality: the spec's two tries, not the library's own search.
        maxIteration: 1,
        useWebWorker: true,
        libURL: compressionLibUrl(),
      });
    } catch {
      throw new PhotoCompressionError(TICKET_MESSAGES.photoCompressionFailed);
    }
    if (out.size <= PHOTO_MAX_BYTES) return new File([out], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  }
  throw new PhotoCompressionError(TICKET_MESSAGES.photoTooLargeAfterCompression);
}
