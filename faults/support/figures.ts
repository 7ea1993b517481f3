import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Each fault test prints its figures and keeps them in
 * `faults/artifacts/<name>.json` (git-ignored), which docs/reliability.md quotes.
 */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const dir = fileURLToPath(new URL('../artifacts/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const entry = { test: name, finishedAt: new Date().toISOString(), ...figures };
  writeFileSync(`${dir}${name}.json`, `${JSON.stringify(entry, null, 2)}\n`);
  console.log(`[faults] ${name} ${JSON.stringify(figures)}`);
}
