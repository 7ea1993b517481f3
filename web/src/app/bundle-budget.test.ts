// @vitest-environment node
import { brotliCompressSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * Issue 32, item 7: the whole 850 KB application loaded for /login and for the
 * public QR form. Each screen is now a chunk of its own (app/routes.tsx): what a
 * visitor downloads before the screen shows is the entry and the screen's chunk
 * with their static imports. Built here (a few seconds) rather than read from
 * web/dist, which may be stale; measured brotli-compressed, as it goes over the wire.
 * The figures in a real browser are the Lighthouse benchmark's (bench/scenarios/lighthouse.ts).
 */

/** The target: under 250 KB of JavaScript over the wire for each public page. */
const BUDGET_BYTES = 250 * 1024;
const STAFF_CHUNKS = ['app-layout', 'home-screen', 'ticket-list-screen', 'ticket-detail-screen', 'stats-screen', 'template-builder-screen', 'clients-screen'];

let chunks: Rollup.OutputChunk[];

beforeAll(async () => {
  const out = await build({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    root: fileURLToPath(new URL('../..', import.meta.url)),
    logLevel: 'silent',
    build: { write: false },
  });
  const output = (Array.isArray(out) ? out[0] : out) as Rollup.RollupOutput;
  chunks = output.output.filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
}, 120_000);

/** The entry, the screen's chunk and everything they import statically: what loads before the screen renders. */
function initialScripts(screenModule: string): Rollup.OutputChunk[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  const screen = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(screenModule));
  if (!entry || !screen) throw new Error(`no chunk for the entry or ${screenModule}`);
  const seen = new Map<string, Rollup.OutputChunk>();
  const stack = [entry, screen];
  for (let chunk = stack.pop(); chunk; chunk = stack.pop()) {
    if (seen.has(chunk.fileName)) continue;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) stack.push(byName.get(name)!);
  }
  return [...seen.values()];
}

const brotliBytes = (scripts: Rollup.OutputChunk[]) => scripts.reduce((sum, chunk) => sum + brotliCompressSync(chunk.code).length, 0);

describe.each([
  ['/login', 'features/auth/components/login-screen.tsx'],
  ['/ticket (the public QR form)', 'features/public-ticket/components/public-ticket-screen.tsx'],
])('%s', (_page, screenModule) => {
  it(`loads under ${BUDGET_BYTES / 1024} KB of JavaScript, brotli-compressed`, () => {
    const bytes = brotliBytes(initialScripts(screenModule));
    expect(bytes).toBeLessThan(BUDGET_BYTES);
  });

  it('loads none of the staff screens', () => {
    const names = initialScripts(screenModule).map((chunk) => chunk.fileName);
    for (const staff of STAFF_CHUNKS) expect(names.filter((name) => name.includes(`/${staff}-`))).toEqual([]);
  });
});

it('the staff screens are still built, each in its own chunk', () => {
  for (const staff of STAFF_CHUNKS) expect(chunks.some((chunk) => chunk.fileName.includes(`/${staff}-`)), staff).toBe(true);
});
