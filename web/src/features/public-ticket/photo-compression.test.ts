import { PHOTO_MAX_BYTES } from '@fsm/contracts';
import { describe, expect, it, vi } from 'vitest';
import { longestSideFor, PhotoCompressionError, preparePhoto } from './photo-compression';

function fileOfSize(size: number, name = 'photo.heic', type = 'image/heic'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('preparePhoto', () => {
  it('keeps a photo of 8 MB or less untouched', async () => {
    const compress = vi.fn();
    const file = fileOfSize(PHOTO_MAX_BYTES);
    await expect(preparePhoto(file, compress as never)).resolves.toBe(file);
    expect(compress).not.toHaveBeenCalled();
  });

  it('re-encodes a bigger photo as JPEG, 2000 px wide at most, quality 0.85 first', async () => {
    const compress = vi.fn().mockResolvedValue(fileOfSize(2_000_000, 'x.jpg', 'image/jpeg'));
    const out = await preparePhoto(fileOfSize(PHOTO_MAX_BYTES + 1), compress as never);
    expect(compress).toHaveBeenCalledTimes(1);
    expect(compress.mock.calls[0]![1]).toMatchObject({ maxWidthOrHeight: 2000, initialQuality: 0.85, fileType: 'image/jpeg' });
    expect(out.name).toBe('photo.jpg');
    expect(out.type).toBe('image/jpeg');
  });

  it('has the worker load the library from the app itself, never from a CDN', async () => {
    const compress = vi.fn().mockResolvedValue(fileOfSize(2_000_000, 'x.jpg', 'image/jpeg'));
    await preparePhoto(fileOfSize(PHOTO_MAX_BYTES + 1), compress as never);
    const { libURL, useWebWorker } = compress.mock.calls[0]![1] as { libURL?: string; useWebWorker: boolean };
    expect(useWebWorker).toBe(true);
    expect(new URL(libURL!).origin).toBe(window.location.origin);
    expect(libURL).toMatch(/browser-image-compression.*\.js$/);
  });

  it('tries quality 0.7 when 0.85 is still too big', async () => {
    const compress = vi
      .fn()
      .mockResolvedValueOnce(fileOfSize(PHOTO_MAX_BYTES + 10))
      .mockResolvedValueOnce(fileOfSize(5_000_000));
    await preparePhoto(fileOfSize(20_000_000), compress as never);
    expect(compress.mock.calls.map((call) => (call[1] as { initialQuality: number }).initialQuality)).toEqual([0.85, 0.7]);
  });

  it("gives up with 'Impossible de compresser la photo sous 8 Mo…' when 0.7 is still too big", async () => {
    const compress = vi.fn().mockResolvedValue(fileOfSize(PHOTO_MAX_BYTES + 10));
    const error = await preparePhoto(fileOfSize(30_000_000), compress as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PhotoCompressionError);
    expect((error as Error).message).toBe('Impossible de compresser la photo sous 8 Mo. Merci de choisir une image plus petite.');
  });

  it("says 'Erreur lors de la compression de la photo.' when compression fails", async () => {
    const compress = vi.fn().mockRejectedValue(new Error('decode'));
    await expect(preparePhoto(fileOfSize(9_000_000), compress as never)).rejects.toThrow('Erreur lors de la compression de la photo.');
  });
});

describe('longestSideFor', () => {
  it('bounds the width at 2000 px whatever the orientation', () => {
    expect(longestSideFor({ width: 4000, height: 3000 })).toBe(2000);
    expect(longestSideFor({ width: 3000, height: 4000 })).toBe(2667);
    expect(longestSideFor({ width: 1500, height: 4000 })).toBe(4000);
    expect(longestSideFor(null)).toBe(2000);
  });
});
