import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// docs/event-catalogue.md is generated from the contracts, the read models and the
// reactions: this fails when one of them changed and the file was not regenerated
// (`npm run event-catalogue`).
describe('docs/event-catalogue.md', () => {
  it('matches the code', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const run = promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', 'scripts/event-catalogue.mjs', '--check'], { cwd: root });
    await expect(run).resolves.toBeDefined();
  }, 60_000);
});
