import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBlobStore, isBlobRef } from './blob-store.js';

const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

async function store() {
  const root = await mkdtemp(join(tmpdir(), 'blobs-'));
  roots.push(root);
  return createBlobStore(root);
}

describe('blob store', () => {
  it('stores bytes under their hash and reads them back', async () => {
    const blobs = await store();
    const ref = await blobs.put(Buffer.from('photo'), 'jpg');
    expect(isBlobRef(ref)).toBe(true);
    expect(ref.endsWith('.jpg')).toBe(true);
    expect((await blobs.read(ref)).toString()).toBe('photo');
    expect(await blobs.exists(ref)).toBe(true);
  });

  it('gives the same reference for the same bytes', async () => {
    const blobs = await store();
    expect(await blobs.put(Buffer.from('same'), 'png')).toBe(await blobs.put(Buffer.from('same'), 'PNG'));
  });

  it('refuses references that could escape the store', async () => {
    const blobs = await store();
    for (const ref of ['../../etc/passwd', `${'a'.repeat(64)}.jpg/../../x`, 'abc.jpg', `${'A'.repeat(64)}.jpg`]) {
      expect(() => blobs.pathOf(ref)).toThrow();
    }
    await expect(blobs.put(Buffer.from('x'), '../sh')).rejects.toThrow();
  });
});
