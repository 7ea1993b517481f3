import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `source`
// export condition, so tests never need a prior build.
// Test workers receive `ssr.resolve.conditions` as Node `--conditions` flags, so
// that list must not contain `import`: pg's internal require('pg-pool') would
// then load pg-pool's ESM build and break.
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node', 'development|production'] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['{contracts,eventstore,projections,command-api,workers,launcher}/{src,test}/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['web/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          // Browser journeys: real Chromium against the whole stack (e2e/support/stack.ts).
          // One file at a time: each starts a full stack and a browser.
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // What the user sees after a command goes through the projections and a
          // live refetch; vitest's 1 s default made journeys fail on a loaded CI
          // machine. Playwright's own waits allow 30 s.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Fault injection (issue 12, items 1–5; docs/reliability.md): real processes
          // killed, private Redis and Postgres servers stopped. One file at a time.
          name: 'faults',
          environment: 'node',
          include: ['faults/**/*.faults.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
