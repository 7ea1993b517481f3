import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown, type BenchResults } from '../../bench/report.js';

/*
 * docs/benchmarks.md is rewritten by every `npm run bench`. A run of a few
 * scenarios (`--scenarios browser,explain`) must not replace the other
 * scenarios' figures with empty ones, and the hand-written notes must
 * survive, even when their end marker is missing.
 */

const machine = { cpus: 2, cpuModel: 'test', ramGb: 8, postgres: 'PostgreSQL 15', node: 'v20', loadBefore: [0, 0, 0], loadAfter: [0, 0, 0] };
const seed = (database: string, tickets: number) => ({
  database,
  tickets,
  events: tickets * 5,
  appendSeconds: 1,
  appendEventsPerSecond: 1,
  rebuildSeconds: 1,
  rebuildEventsPerSecond: 1,
  totalSeconds: 60,
  peakRssMb: 100,
  synthetic: false,
});
const dist = (value: number) => ({ n: 5, median: value, p95: value, p99: value, max: value });

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function previousFile(text: string): string {
  dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
  const path = join(dir, 'benchmarks.md');
  writeFileSync(path, text);
  return path;
}

/** A full run's file: floor, live and memory figures, then notes. */
function fullRun(path: string, notesEnd = true): string {
  const full: BenchResults = {
    date: '2026-11-23T03:12:43.477Z',
    command: 'npm run bench',
    quick: false,
    machine,
    database: 'fsm_bench',
    scenarios: ['floor', 'live'],
    partial: false,
    seeds: [seed('fsm_bench', 1_000_000)],
    floor: [{ clients: 1, commitsPerSecond: 3216, latency: dist(0.3) }] as BenchResults['floor'],
    live: { samples: 100, writeToScreen: dist(12), beforeAnswer: 90, peakRssMb: 613 } as BenchResults['live'],
    peakRss: [{ scenario: 'write to screen', mb: 613 }],
  };
  const text = renderMarkdown(full, path).replace('<!-- /notes -->', notesEnd ? 'Hand-written analysis.\n<!-- /notes -->' : 'Hand-written analysis.\n\n### Later notes, no end marker');
  return notesEnd ? text : text.replace(/\n<!-- \/notes -->\n?/, '\n');
}

const browserRun: BenchResults = {
  date: '2026-11-25T00:01:03.114Z',
  command: 'npm run bench -- --scenarios browser',
  quick: false,
  machine,
  database: 'fsm_h4_100k',
  scenarios: ['browser'],
  partial: true,
  seeds: [seed('fsm_h4_100k', 100_000)],
  browser: [
    {
      database: 'fsm_h4_100k',
      tickets: 100_000,
      chromium: '156',
      peakRssMb: 257,
      cases: [{ name: 'Statistiques 1 an (toutes agences)', firstRows: dist(589), total: 49_887, rowsShown: 2003, domNodes: 974, heapMb: 12.5 }],
    },
  ],
  peakRss: [{ scenario: 'browser, 100,000 tickets', mb: 257 }],
};

describe('bench report of a partial run', () => {
  it('keeps the sections, table rows and targets the run did not measure, and the notes', () => {
    const path = previousFile('');
    const previous = fullRun(path);
    writeFileSync(path, previous);

    const text = renderMarkdown(browserRun, path);

    // What this run measured.
    expect(text).toContain('## Paged screens in Chromium (issue 19)');
    expect(text).toContain('| Statistiques 1 an (toutes agences) | 49 887 | 589 / 589 | 2 003 | 974 | 12.5 MB |');
    expect(text).toContain('- **Scenarios of this run:** browser.');
    // What it did not: kept as the previous file had it.
    expect(text).toContain('## Append floor (yardstick)');
    expect(text).toContain('| 1 | 3 216 |');
    expect(text).toContain('## Write to screen');
    expect(text).toMatch(/\| write-to-screen p95 < 200 ms \| 12\.0 ms \| \*\*met\*\* \|/);
    expect(text).not.toMatch(/\| write-to-screen p95 < 200 ms \| — \| not measured \|/);
    // Both databases in the data sets, both scenarios in the memory table.
    expect(text).toContain('| `fsm_h4_100k` | 100 000 |');
    expect(text).toContain('| `fsm_bench` | 1 000 000 |');
    expect(text).toContain('| write to screen | 613 MB |');
    expect(text).toContain('| browser, 100,000 tickets | 257 MB |');
    // The notes, once.
    expect(text.match(/Hand-written analysis\./g)).toHaveLength(1);
    expect(text.trimEnd().endsWith('<!-- /notes -->')).toBe(true);
  });

  it('keeps notes that lost their end marker', () => {
    const path = previousFile('');
    writeFileSync(path, fullRun(path, false));

    const text = renderMarkdown(browserRun, path);

    expect(text).toContain('Hand-written analysis.');
    expect(text).toContain('### Later notes, no end marker');
    expect(text.trimEnd().endsWith('<!-- /notes -->')).toBe(true);
  });
});
