import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Position } from '@fsm/eventstore';

/*
 * Issue 32, item 13. A store position is platform-wide: told in clear, two
 * messages' positions would give an agency the number of events every other
 * agency wrote in between. The browser only ever sends a position back
 * (`?since=` on reconnect), so it gets it sealed: AES-256-GCM under a key
 * derived from the token secret (so any instance opens what another sealed),
 * a fresh random IV each time (the same position never reads the same twice,
 * so two seals cannot even be compared), padded to a fixed length (the length
 * says nothing either). A token that does not open (forged, from an older key)
 * is treated as an unknown position: the client refetches everything.
 */

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Every position fits (Postgres: 41 characters; KurrentDB: two 64-bit numbers). */
const PADDED_BYTES = 64;

/** The purpose of the key positions are sealed with (TokenService.derivedKey). */
export const POSITION_SEAL_KEY_PURPOSE = 'live-position';

export interface PositionSeal {
  seal(position: Position): string;
  /** The position sealed in `token`; null when it is not one of ours. */
  open(token: string): Position | null;
}

export function createPositionSeal(key: Buffer): PositionSeal {
  return {
    seal(position) {
      const text = Buffer.from(position, 'utf8');
      if (text.length >= PADDED_BYTES) throw new Error('position too long to seal');
      // Length-prefixed, then zero-padded.
      const plain = Buffer.alloc(PADDED_BYTES);
      plain.writeUInt8(text.length, 0);
      text.copy(plain, 1);
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    open(token) {
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length !== IV_BYTES + PADDED_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
        decipher.setAuthTag(bytes.subarray(IV_BYTES + PADDED_BYTES));
        const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, IV_BYTES + PADDED_BYTES)), decipher.final()]);
        const length = plain.readUInt8(0);
        return length < PADDED_BYTES ? (plain.subarray(1, 1 + length).toString('utf8') as Position) : null;
      } catch {
        return null;
      }
    },
  };
}
