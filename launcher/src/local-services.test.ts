import { describe, expect, it } from 'vitest';
import { withoutPassword } from './local-services.js';

describe('withoutPassword', () => {
  it('hides the password of a connection URL before it is logged', () => {
    const logged = withoutPassword('postgres://app:s3cr3t-Pa55@db.example:5432/fsm');
    expect(logged).not.toContain('s3cr3t-Pa55');
    expect(logged).toBe('postgres://app:***@db.example:5432/fsm');
    expect(withoutPassword('redis://:hunter2@127.0.0.1:6379')).not.toContain('hunter2');
  });

  it('leaves a URL without password as it is, and never echoes an unreadable one', () => {
    expect(withoutPassword('postgres://postgres@127.0.0.1:5432/postgres')).toBe('postgres://postgres@127.0.0.1:5432/postgres');
    expect(withoutPassword('not a url with secret')).toBe('(adresse illisible)');
  });
});
