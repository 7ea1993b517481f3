import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { VERSION_MESSAGES, parseIfMatch, requestedVersion, versionEtag, withEditVersion } from './version.js';
import { clientBodySchema } from './client.js';

describe('the version of a management edit', () => {
  it('reads If-Match as the ETag it answers, a bare number too, and * as no version', () => {
    expect(parseIfMatch(versionEtag(12))).toBe(12);
    expect(parseIfMatch(' 7 ')).toBe(7);
    expect(parseIfMatch('*')).toBeUndefined();
    expect(parseIfMatch(undefined)).toBeUndefined();
  });

  it('refuses what is no version we hand out, with the French message', () => {
    for (const value of ['', 'abc', '"-1"', '"1", "2"', 'W/"1"', '"1.5"', '"99999999999"', ['"1"', '"2"']]) {
      expect(() => parseIfMatch(value), String(value)).toThrow(new ValidationError(VERSION_MESSAGES.ifMatchInvalid));
    }
  });

  it('takes the header or the body, and refuses the two when they disagree', () => {
    expect(requestedVersion('"3"', undefined)).toBe(3);
    expect(requestedVersion(undefined, 4)).toBe(4);
    expect(requestedVersion('"5"', 5)).toBe(5);
    expect(requestedVersion(undefined, undefined)).toBeUndefined();
    expect(() => requestedVersion('"5"', 6)).toThrow(VERSION_MESSAGES.versionsDiffer);
  });

  it('keeps `version` optional in a body, so a client that never sends it still parses', () => {
    const schema = withEditVersion(clientBodySchema);
    const body = { nom: 'Client', adresse: '1 rue', ville: 'Lyon', code_postal: '69002', agence_id: '00000000-0000-4000-8000-000000000001' };
    expect(schema.parse(body)).not.toHaveProperty('version');
    expect(schema.parse({ ...body, version: 3 }).version).toBe(3);
    for (const version of [-1, 1.5, '3', 2 ** 31]) {
      expect(schema.safeParse({ ...body, version }).error?.issues[0]?.message, String(version)).toBe(VERSION_MESSAGES.versionInvalid);
    }
  });
});
