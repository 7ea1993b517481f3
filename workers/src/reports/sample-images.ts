import { crc32, deflateSync } from 'node:zlib';

/*
 * Tiny PNG writer for the sample report's images (signatures, a photo): RGB
 * pixels drawn in code, so neither the template preview nor the tests ship
 * binary fixtures or need an image package.
 */

/** One PNG chunk: length, type, data, CRC-32 (of type and data). */
export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: [number, number, number] = [255, 255, 255],
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) this.pixels.set(background, i * 3);
  }

  set(x: number, y: number, rgb: readonly [number, number, number]): void {
    const px = Math.round(x);
    const py = Math.round(y);
    if (px < 0 || py < 0 || px >= this.width || py >= this.height) return;
    this.pixels.set(rgb, (py * this.width + px) * 3);
  }

  /** A round pen of `radius` along a path of points. */
  stroke(points: readonly [number, number][], radius: number, rgb: readonly [number, number, number]): void {
    for (let i = 1; i < points.length; i++) {
      const [x0, y0] = points[i - 1]!;
      const [x1, y1] = points[i]!;
      const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0)));
      for (let s = 0; s <= steps; s++) {
        const x = x0 + ((x1 - x0) * s) / steps;
        const y = y0 + ((y1 - y0) * s) / steps;
        for (let dx = -radius; dx <= radius; dx++) for (let dy = -radius; dy <= radius; dy++) if (dx * dx + dy * dy <= radius * radius) this.set(x + dx, y + dy, rgb);
      }
    }
  }

  rect(x: number, y: number, w: number, h: number, rgb: readonly [number, number, number]): void {
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) this.set(x + i, y + j, rgb);
  }

  toPng(): Buffer {
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header[8] = 8; // bit depth
    header[9] = 2; // RGB
    const raw = Buffer.alloc((this.width * 3 + 1) * this.height);
    for (let y = 0; y < this.height; y++) {
      raw[y * (this.width * 3 + 1)] = 0;
      Buffer.from(this.pixels.buffer, y * this.width * 3, this.width * 3).copy(raw, y * (this.width * 3 + 1) + 1);
    }
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(raw)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

/** A handwritten-looking signature (canvas height 160 like the UI's pad). */
export function signaturePng(seed = 1): Buffer {
  const canvas = new Canvas(480, 160);
  const ink: [number, number, number] = [20, 40, 110];
  const points: [number, number][] = [];
  for (let t = 0; t <= 1; t += 0.002) {
    const x = 40 + t * 360;
    const y = 95 - 38 * Math.sin(t * Math.PI * (5 + seed)) * Math.exp(-t * 1.2) - 12 * Math.sin(t * 31 + seed);
    points.push([x, y]);
  }
  canvas.stroke(points, 2, ink);
  canvas.stroke(
    [
      [70, 125],
      [420, 112],
    ],
    1,
    ink,
  );
  return canvas.toPng();
}

/** A 'photo' of a fire alarm panel: a grey box with red and green lights. */
export function photoPng(): Buffer {
  const canvas = new Canvas(400, 260, [214, 219, 224]);
  canvas.rect(60, 40, 280, 180, [238, 238, 232]);
  canvas.rect(60, 40, 280, 26, [166, 27, 27]);
  for (let i = 0; i < 6; i++) canvas.rect(90 + i * 40, 100, 18, 18, i === 2 ? [220, 30, 30] : [40, 160, 70]);
  canvas.rect(90, 150, 220, 40, [60, 64, 67]);
  return canvas.toPng();
}
