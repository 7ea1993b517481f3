import { describe, expect, it } from 'vitest';
import { UnauthorizedError } from '@fsm/contracts';
import { bearerToken, createTokenService } from './tokens.js';

const secret = 'a-test-secret-that-is-long-enough-1234';

describe('session tokens', () => {
  it('round-trips the user id, with the expiry the revocation list keeps', async () => {
    const tokens = createTokenService({ secret, ttlHours: 1, now: () => new Date('2026-11-22T10:00:00Z') });
    const token = await tokens.sign({ sub: 'user-1' });
    await expect(tokens.verify(token)).resolves.toEqual({ sub: 'user-1', exp: Date.parse('2026-11-22T11:00:00Z') / 1000 });
  });

  it('refuses an expired token with "Session expirée"', async () => {
    let now = new Date('2026-11-22T10:00:00Z');
    const tokens = createTokenService({ secret, ttlHours: 1, now: () => now });
    const token = await tokens.sign({ sub: 'user-1' });
    now = new Date('2026-11-22T11:00:01Z');
    await expect(tokens.verify(token)).rejects.toThrow(new UnauthorizedError('Session expirée'));
  });

  it('refuses a token signed with another key, or tampered with', async () => {
    const ours = createTokenService({ secret, ttlHours: 1 });
    const theirs = createTokenService({ secret: 'another-secret-that-is-long-enough-99', ttlHours: 1 });
    await expect(ours.verify(await theirs.sign({ sub: 'user-1' }))).rejects.toBeInstanceOf(UnauthorizedError);
    const token = await ours.sign({ sub: 'user-1' });
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'admin', iss: 'fsm-tickets', exp: 9999999999 })).toString('base64url')}.${signature}`;
    await expect(ours.verify(forged)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(ours.verify('garbage')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('reads the bearer header', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
