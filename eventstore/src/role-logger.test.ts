import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createRoleLogger, prettyLogs } from './role-logger.js';

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('a role logger (issue 32, item 16)', () => {
  it('writes readable lines on a terminal', () => {
    const out = sink();
    const logger = createRoleLogger({ level: 'info', name: 'command-api' }, { isTTY: true, env: {} }, out.stream);
    logger.info({ url: 'http://localhost:3000' }, 'API prête');
    const text = out.text();
    expect(text).toMatch(/INFO.*\(command-api\).*API prête/);
    expect(text).toContain('url: "http://localhost:3000"');
    expect(() => JSON.parse(text.split('\n')[0]!)).toThrow();
  });

  it('writes one JSON object per line anywhere else: a pipe, CI, the tests', () => {
    for (const output of [{ isTTY: false, env: {} }, { isTTY: true, env: { CI: 'true' } }, { isTTY: true, env: { NODE_ENV: 'test' } }]) {
      const out = sink();
      createRoleLogger({ level: 'info', name: 'workers' }, output, out.stream).warn({ job: 'x' }, 'relance');
      const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
      expect(line).toMatchObject({ level: 40, name: 'workers', job: 'x', msg: 'relance' });
    }
  });

  it('is pretty only for a person at a terminal', () => {
    expect(prettyLogs({ isTTY: true, env: {} })).toBe(true);
    expect(prettyLogs({ isTTY: true, env: { CI: 'false' } })).toBe(true);
    expect(prettyLogs({ isTTY: false, env: {} })).toBe(false);
    expect(prettyLogs({ isTTY: true, env: { CI: '1' } })).toBe(false);
    expect(prettyLogs({ isTTY: true, env: { VITEST: 'true' } })).toBe(false);
  });
});
