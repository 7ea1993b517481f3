import { constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { defaultClientConditions, defineConfig } from 'vite';

const apiTarget = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    // Brotli and gzip copies beside each file of web/dist, made once at build time: the API
    // serves them as they are (@fastify/static `preCompressed`, command-api/src/http/web-ui.ts).
    compression({
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm('gzip', { level: 9 })],
      include: /\.(js|css|html|svg|txt)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
    }),
  ],
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
