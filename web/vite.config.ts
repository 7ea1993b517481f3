import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `source` makes workspace packages such as @fsm/contracts resolve to their
    // TypeScript sources, so the web app never waits for a contracts build.
    conditions: ['source', ...defaultClientConditions],
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/ws': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Modules run in source import order even across chunks: main.tsx's first import
      // (lib/strict-csp) must configure zod before any schema of contracts is built.
      output: { strictExecutionOrder: true },
    },
  },
});
