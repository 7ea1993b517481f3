import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Content-addressed files (photos, signatures, reports): events carry the
 * reference, never the bytes. A reference is `<sha256>.<ext>`, so the same
 * bytes stored twice are one file, and a reference can never name a path
 * outside the store.
 */
export interface BlobStore {
  put(bytes: Buffer, extension: string): Promise<string>;
  read(ref: string): Promise<Buffer>;
  exists(ref: string): Promise<boolean>;
  /** Absolute path of a stored blob (for streaming); throws on a malformed ref. */
  pathOf(ref: string): string;
}

const REF = /^([a-f0-9]{64})\.([a-z0-9]{1,8})$/;

export function isBlobRef(value: string): boolean {
  return REF.test(value);
}

export function createBlobStore(root: string): BlobStore {
  const pathOf = (ref: string): string => {
    const match = REF.exec(ref);
    if (!match) throw new Error('référence de fichier invalide');
    const hash = match[1]!;
    return join(root, hash.slice(0, 2), ref);
  };
  return {
    pathOf,
    async put(bytes, extension) {
      const ext = extension.toLowerCase().replace(/^\./, '');
      if (!/^[a-z0-9]{1,8}$/.test(ext)) throw new Error('extension de fichier invalide');
      const ref = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
      const target = pathOf(ref);
      try {
        await stat(target);
        return ref;
      } catch {
        // Not stored yet.
      }
      await mkdir(join(target, '..'), { recursive: true });
      // Write then rename: a reader never sees a half-written file.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, target);
      return ref;
    },
    async read(ref) {
      return readFile(pathOf(ref));
    },
    async exists(ref) {
      try {
        await stat(pathOf(ref));
        return true;
      } catch {
        return false;
      }
    },
  };
}
