import { deflateSync } from 'node:zlib';
import { pngChunk as chunk } from '@fsm/workers/test-support';

/*
 * A signature as the close wizard's pad sends it: an 8-bit RGBA PNG, opaque
 * everywhere (white background), at a phone's canvas size (1074 × 480 device
 * pixels). The seeded signatures are small RGB PNGs, which pdfkit embeds
 * without decoding; real ones cost a decode and a re-encode per render, so the
 * reports scenario also times renders with these.
 */

export function padSignaturePng(seed = 1, width = 1074, height = 480): Buffer {
  const stride = width * 4 + 1;
  const raw = Buffer.alloc(stride * height, 255);
  for (let y = 0; y < height; y++) raw[y * stride] = 0;
  const ink = (x: number, y: number) => {
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        const at = py * stride + 1 + px * 4;
        raw[at] = 20;
        raw[at + 1] = 40;
        raw[at + 2] = 110;
        raw[at + 3] = 255;
      }
  };
  for (let t = 0; t <= 1; t += 0.0005) {
    const x = width * (0.08 + 0.8 * t);
    const y = height * (0.55 - 0.22 * Math.sin(t * Math.PI * (5 + seed)) * Math.exp(-t * 1.2) - 0.07 * Math.sin(t * 31 + seed));
    ink(x, y);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
