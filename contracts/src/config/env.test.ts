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
});
