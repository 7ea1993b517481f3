import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `source`
// export condition, so tests never need a prior build.
const sourceConditions = ['source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions: sourceConditions },
  ssr: { resolve: { conditions: sourceConditions } },
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
    ],
  },
});
