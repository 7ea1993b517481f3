/**
 * An uncompressed 24-bit BMP: a smooth gradient, so the browser's JPEG
 * re-encoding lands far under the limit. 2400×1300 px is about 9.4 MB, over
 * the spec's 8 MB (8,388,608 bytes) threshold that triggers compression.
 */
export function bigBmp(width = 2400, height = 1300): Buffer {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const pixelBytes = rowSize * height;
  const buffer = Buffer.alloc(54 + pixelBytes);
  buffer.write('BM', 0, 'ascii');
  buffer.writeUInt32LE(buffer.length, 2);
  buffer.writeUInt32LE(54, 10);
  buffer.writeUInt32LE(40, 14);
  buffer.writeInt32LE(width, 18);
  buffer.writeInt32LE(height, 22);
  buffer.writeUInt16LE(1, 26);
  buffer.writeUInt16LE(24, 28);
  buffer.writeUInt32LE(0, 30);
  buffer.writeUInt32LE(pixelBytes, 34);
  for (let y = 0; y < height; y++) {
    const row = 54 + y * rowSize;
    for (let x = 0; x < width; x++) {
      const p = row + x * 3;
      buffer[p] = (x * 255) / width; // blue
      buffer[p + 1] = (y * 255) / height; // green
      buffer[p + 2] = 128; // red
    }
  }
  return buffer;
}
