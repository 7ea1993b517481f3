import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.js';

describe('parseEnv', () => {
  it('needs nothing on one machine', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/postgres');
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(env.EVENTSTORE_URL).toBeUndefined();
    expect(env.SEED_DEMO).toBe(true);
    expect(env.PUBLIC_URL).toBe('http://localhost:3000');
  });

  it('derives the public URL from the port unless given', () => {
    expect(parseEnv({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080');
    expect(parseEnv({ PORT: '8080', PUBLIC_URL: 'https://tickets.example.fr/' }).PUBLIC_URL).toBe('https://tickets.example.fr');
  });

  it('lists every bad key at once', () => {
    try {
      parseEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe' });
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const keys = (error as EnvError).problems.map((p) => p.split(':')[0]);
      expect(keys.sort()).toEqual(['DATABASE_URL', 'PORT', 'SEED_DEMO']);
    }
  });

  it('requires a token secret in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production' })).toThrow(/TOKEN_SECRET/);
    expect(parseEnv({ NODE_ENV: 'production', TOKEN_SECRET: 'x'.repeat(32) }).NODE_ENV).toBe('production');
  });

  it('treats empty strings as unset', () => {
    expect(parseEnv({ PORT: '', SEED_DEMO: 'false' })).toMatchObject({ PORT: 3000, SEED_DEMO: false });
  });

  it('trusts no proxy unless told which (a forged X-Forwarded-For must not choose the client address)', () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,::1, fd00::/8 ,loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '192.168.1.10', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses a TRUST_PROXY Fastify would misread, with the other bad keys', () => {
    for (const bad of ['oui', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,', 'fd00::/129', '99', '10.0.0.0/8/1', 'proxy.example.fr']) {
      try {
        parseEnv({ TRUST_PROXY: bad, PORT: 'abc' });
        expect.fail(`${bad} should have been refused`);
      } catch (error) {
        expect(error).toBeInstanceOf(EnvError);
        expect((error as EnvError).problems.map((p) => p.split(':')[0]).sort()).toEqual(['PORT', 'TRUST_PROXY']);
      }
    }
  });
});
